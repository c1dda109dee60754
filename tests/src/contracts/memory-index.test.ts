import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryReadStore } from '@telemed/platform';

type Doc = { _id: string; status: string; owner: string; n: number };

/** A small deterministic sequence of numbers, so a failure can be replayed. */
function numbers(seed: number) {
  let x = seed;
  return () => (x = (x * 1103515245 + 12345) % 2147483648) / 2147483648;
}

describe('the in-memory store keeps its equality indexes true through puts, patches and deletes', () => {
  it('answers every indexed filter as a scan of its documents would, before and after the index is filled', async () => {
    const store = new MemoryReadStore();
    await store.ensureIndex('c', 'status');
    await store.ensureIndex('c', 'owner');
    const c = store.collection<Doc>('c');
    const expected = new Map<string, Doc>();
    const random = numbers(7);
    const statuses = ['open', 'reserved', 'closed'];
    const owners = ['a', 'b', 'c', 'd'];
    const check = async () => {
      for (const status of statuses) {
        const want = [...expected.values()].filter((d) => d.status === status).map((d) => d._id).sort();
        assert.deepEqual((await c.find({ status })).map((d) => d._id).sort(), want, `status ${status}`);
        assert.equal(await c.count({ status }), want.length);
      }
      for (const owner of owners) {
        for (const status of statuses) {
          const want = [...expected.values()].filter((d) => d.owner === owner && d.status === status).map((d) => d._id).sort();
          assert.deepEqual((await c.find({ owner, status })).map((d) => d._id).sort(), want, `owner ${owner} status ${status}`);
        }
      }
    };
    // Written before any query (no index filled, as in a rebuild), then queried (filled), then written again.
    for (let round = 0; round < 3; round += 1) {
      for (let i = 0; i < 300; i += 1) {
        const id = `d${Math.floor(random() * 60)}`;
        const op = random();
        if (op < 0.4) {
          const doc = { _id: id, status: statuses[Math.floor(random() * 3)]!, owner: owners[Math.floor(random() * 4)]!, n: i };
          await c.put({ ...doc });
          expected.set(id, doc);
        } else if (op < 0.8) {
          const fields = random() < 0.5 ? { status: statuses[Math.floor(random() * 3)]! } : { owner: owners[Math.floor(random() * 4)]!, n: i };
          await c.patch(id, fields);
          const doc = expected.get(id);
          if (doc) expected.set(id, { ...doc, ...fields });
        } else {
          await c.delete(id);
          expected.delete(id);
        }
      }
      await check();
    }
    assert.ok(expected.size > 0);
  });
});
