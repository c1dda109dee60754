import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BufferedBatch, MemoryReadStore, SqliteReadStore, type ReadStore } from '@telemed/platform';
import { MongoReadStore } from '@telemed/platform/servers';
import { projectionChecksum, type Projection } from '@telemed/query';

interface Item {
  _id: string;
  owner: string;
  n: number;
  tags?: string[];
}

interface Visit {
  _id: string;
  doctor_id: string;
  status: string;
  start: string;
  fee?: number | boolean | null;
  active?: boolean;
  tags?: string[];
  address?: { city: string; pin?: number };
  note?: string | null;
}

const visits: Visit[] = [
  { _id: 'v1', doctor_id: 'd1', status: 'open', start: '2031-01-01T09:00:00Z', fee: 100, active: true, tags: ['new'], address: { city: 'Pune', pin: 411001 }, note: null },
  { _id: 'v2', doctor_id: 'd1', status: 'reserved', start: '2031-01-01T09:30:00Z', fee: 200, active: false, tags: [], address: { city: 'Delhi' } },
  { _id: 'v3', doctor_id: 'd2', status: 'open', start: '2031-01-01T08:00:00Z', fee: null, active: true, note: 'x' },
  { _id: 'v4', doctor_id: 'd2', status: 'withdrawn', start: '2031-01-02T08:00:00Z', fee: 1, tags: ['new', 'vip'], address: { city: 'Pune' } },
  { _id: 'v5', doctor_id: 'd1', status: 'open', start: '2031-01-03T10:00:00Z', fee: true },
];

/**
 * What every ReadStore adapter must do. `reopen` (durable adapters) opens the same data again after a close;
 * `atomic` adapters commit a batch's documents and checkpoints together or not at all.
 */
function readStoreContract(name: string, connect: () => Promise<ReadStore>, options: { reopen?: (previous: ReadStore) => Promise<ReadStore> } = {}) {
  describe(`ReadStore contract: ${name}`, () => {
    const opened: ReadStore[] = [];
    const open = async () => {
      const store = await connect();
      opened.push(store);
      return store;
    };
    after(async () => {
      for (const store of opened) await store.close();
    });

    const seeded = async () => {
      const store = await open();
      await store.ensureIndex('visits', 'status');
      await store.ensureCompoundIndex?.('visits', ['doctor_id', 'start']);
      for (const v of visits) await store.collection<Visit>('visits').put(structuredClone(v));
      return store.collection<Visit>('visits');
    };
    const ids = (docs: Visit[]) => docs.map((d) => d._id);

    it('equality, $in, ranges, $ne and $exists as MongoDB matches them', async () => {
      const c = await seeded();
      assert.deepEqual(ids(await c.find({ doctor_id: 'd1' }, { sort: { start: 1 } })), ['v1', 'v2', 'v5']);
      assert.deepEqual(ids(await c.find({ status: { $in: ['open', 'reserved'] } }, { sort: { _id: 1 } })), ['v1', 'v2', 'v3', 'v5']);
      assert.deepEqual(ids(await c.find({ note: { $in: [null, 'x'] } }, { sort: { _id: 1 } })), ['v1', 'v2', 'v3', 'v4', 'v5'], '$in null matches missing');
      assert.deepEqual(ids(await c.find({ start: { $gt: '2031-01-01T08:00:00Z', $lte: '2031-01-02T08:00:00Z' } }, { sort: { start: 1 } })), ['v1', 'v2', 'v4']);
      assert.deepEqual(ids(await c.find({ start: { $gte: '2031-01-01T09:30:00Z', $lt: '2031-01-03T10:00:00Z' } }, { sort: { start: -1 } })), ['v4', 'v2']);
      assert.deepEqual(ids(await c.find({ fee: { $gte: 100 } }, { sort: { fee: 1 } })), ['v1', 'v2'], 'a numeric range skips booleans and nulls');
      assert.deepEqual(ids(await c.find({ fee: 1 })), ['v4'], '1 is not true');
      assert.deepEqual(ids(await c.find({ fee: true })), ['v5'], 'true is not 1');
      assert.deepEqual(ids(await c.find({ fee: { $ne: 1 } }, { sort: { _id: 1 } })), ['v1', 'v2', 'v3', 'v5']);
      assert.deepEqual(ids(await c.find({ status: { $ne: 'open' } }, { sort: { _id: 1 } })), ['v2', 'v4']);
      assert.deepEqual(ids(await c.find({ note: null }, { sort: { _id: 1 } })), ['v1', 'v2', 'v4', 'v5'], 'null matches missing');
      assert.deepEqual(ids(await c.find({ note: { $ne: null } })), ['v3']);
      assert.deepEqual(ids(await c.find({ note: { $exists: true } }, { sort: { _id: 1 } })), ['v1', 'v3']);
      assert.deepEqual(ids(await c.find({ tags: { $exists: false } }, { sort: { _id: 1 } })), ['v3', 'v5']);
      assert.deepEqual(ids(await c.find({ active: true }, { sort: { _id: 1 } })), ['v1', 'v3']);
      assert.deepEqual(ids(await c.find({ _id: { $in: ['v2', 'v4', 'nope'] } }, { sort: { _id: -1 } })), ['v4', 'v2']);
      assert.deepEqual(ids(await c.find({ _id: { $gt: 'v3' } }, { sort: { _id: 1 } })), ['v4', 'v5']);
      assert.equal(await c.count({ status: 'open', doctor_id: 'd1' }), 2);
      assert.equal(await c.count({ status: { $in: [] } }), 0);
    });

    it('$or, nested fields and array fields', async () => {
      const c = await seeded();
      const past = { $or: [{ status: { $in: ['withdrawn', 'reserved'] } }, { start: { $lte: '2031-01-01T08:00:00Z' } }] };
      assert.deepEqual(ids(await c.find({ ...past }, { sort: { start: -1 } })), ['v4', 'v2', 'v3']);
      assert.deepEqual(ids(await c.find({ doctor_id: 'd2', ...past }, { sort: { start: 1 } })), ['v3', 'v4']);
      assert.deepEqual(ids(await c.find({ 'address.city': 'Pune' }, { sort: { _id: 1 } })), ['v1', 'v4']);
      assert.deepEqual(ids(await c.find({ 'address.pin': { $gt: 400000 } })), ['v1']);
      assert.equal(await c.count({ 'address.pin': { $exists: false } }), 4);
      assert.deepEqual(ids(await c.find({ tags: 'new' }, { sort: { _id: 1 } })), ['v1', 'v4'], 'equality matches an array element');
      assert.deepEqual(ids(await c.find({ tags: { $in: ['vip', 'x'] } })), ['v4']);
      assert.equal(await c.count({ tags: 'new', status: 'open' }), 1);
    });

    it('a count with a limit stops there: exact below it, the limit at or above it, on indexed and scanned filters alike', async () => {
      const c = await seeded();
      assert.equal(await c.count({}, { limit: 3 }), 3);
      assert.equal(await c.count({}, { limit: 10 }), 5);
      assert.equal(await c.count({ status: { $in: ['open', 'reserved'] } }, { limit: 2 }), 2);
      assert.equal(await c.count({ doctor_id: 'd1' }, { limit: 3 }), 3);
      assert.equal(await c.count({ doctor_id: 'd1' }, { limit: 2 }), 2);
      assert.equal(await c.count({ 'address.pin': { $exists: false } }, { limit: 1 }), 1, 'a nested field');
      assert.equal(await c.count({ tags: 'new' }, { limit: 5 }), 2, 'an array field');
      assert.equal(await c.count({ status: 'none' }, { limit: 5 }), 0);
    });

    it('keyset pages: (start, _id) after a cursor, sorted, limited', async () => {
      const c = await seeded();
      const pages: string[][] = [];
      let after: Visit | null = null;
      for (;;) {
        const cursor: Record<string, unknown> = after ? { $or: [{ start: { $gt: after.start } }, { start: after.start, _id: { $gt: after._id } }] } : {};
        const page = await c.find({ status: { $ne: 'withdrawn' }, ...cursor }, { sort: { start: 1, _id: 1 }, limit: 2 });
        if (page.length === 0) break;
        pages.push(ids(page));
        after = page.at(-1)!;
      }
      assert.deepEqual(pages, [['v3', 'v1'], ['v2', 'v5']]);
    });

    it('an index on a nested field finds what a scan finds', async () => {
      const store = await open();
      await store.ensureIndex('nested', 'address.city');
      const c = store.collection<Visit>('nested');
      for (const v of visits) await c.put(structuredClone(v));
      assert.deepEqual(ids(await c.find({ 'address.city': 'Pune' }, { sort: { _id: 1 } })), ['v1', 'v4']);
      assert.deepEqual(ids(await c.find({ status: 'open', 'address.city': 'Pune' })), ['v1']);
    });

    it('keyset pages newest first: (start, _id) descending, equal starts by _id descending', async () => {
      const store = await open();
      await store.ensureCompoundIndex?.('ties', ['owner', 'start']);
      const ties = store.collection<{ _id: string; owner: string; start: string }>('ties');
      // Slots on the hour: several documents share a start.
      for (const [id, start] of [['a', '10'], ['b', '10'], ['c', '11'], ['d', '10'], ['e', '09'], ['f', '11']] as const) await ties.put({ _id: id, owner: 'o', start });
      const pages: string[][] = [];
      let after: { _id: string; start: string } | null = null;
      for (;;) {
        const cursor: Record<string, unknown> = after ? { $or: [{ start: { $lt: after.start } }, { start: after.start, _id: { $lt: after._id } }] } : {};
        const page = await ties.find({ owner: 'o', ...cursor }, { sort: { start: -1, _id: -1 }, limit: 2 });
        if (page.length === 0) break;
        pages.push(page.map((d) => d._id));
        after = page.at(-1)!;
      }
      assert.deepEqual(pages, [['f', 'c'], ['d', 'b'], ['a', 'e']], 'every document once, in order');
      const byStart = async (sort: Record<string, 1 | -1>) => (await ties.find({ owner: 'o' }, { sort })).map((d) => d._id);
      assert.deepEqual(await byStart({ start: -1 }), ['f', 'c', 'd', 'b', 'a', 'e'], "without _id, ties follow the last key's direction");
      assert.deepEqual(await byStart({ start: 1 }), ['e', 'a', 'b', 'd', 'c', 'f']);
      assert.deepEqual(await byStart({ start: -1, _id: 1 }), ['c', 'f', 'a', 'b', 'd', 'e'], 'a named _id direction is kept');
    });

    it('skips and limits after the whole filter, whatever part the store answers by itself', async () => {
      const c = await seeded();
      // tags held arrays and address.city is nested: the filter's exact check comes after any index.
      assert.deepEqual(ids(await c.find({ tags: 'new', doctor_id: { $in: ['d1', 'd2'] } }, { sort: { start: 1 }, skip: 1, limit: 1 })), ['v4']);
      assert.deepEqual(ids(await c.find({ status: 'open', fee: { $ne: true } }, { sort: { fee: -1 }, limit: 2 })), ['v1', 'v3'], 'a sort key that held several kinds');
      assert.deepEqual(ids(await c.find({}, { sort: { note: 1, _id: -1 }, limit: 3 })), ['v5', 'v4', 'v2'], 'missing and null first');
      assert.deepEqual(ids(await c.find({ doctor_id: 'd1' }, { skip: 5 })), []);
      assert.deepEqual(ids(await c.find({ doctor_id: 'd1' }, { sort: { start: 1 }, limit: 0 })), []);
    });

    it('a batch reads its own writes and commits them with its checkpoints', async () => {
      const store = await open();
      await store.ensureIndex('visits', 'doctor_id');
      await store.collection<Visit>('visits').put(structuredClone(visits[0]!));
      const batch = store.beginBatch();
      const c = batch.collection<Visit>('visits');
      await c.put(structuredClone(visits[1]!));
      await c.patch('v1', { status: 'reserved' });
      await c.patch('missing', { status: 'open' });
      assert.deepEqual(ids(await c.find({ doctor_id: 'd1', status: 'reserved' }, { sort: { start: 1 } })), ['v1', 'v2']);
      await c.delete('v2');
      assert.equal(await c.get('v2'), null);
      assert.equal(await c.count({ doctor_id: 'd1' }), 1);
      await batch.commit([{ name: 'visits', version: 3, position: 12 }]);
      assert.deepEqual(await store.getCheckpoint('visits'), { name: 'visits', version: 3, position: 12 });
      assert.equal((await store.collection<Visit>('visits').get('v1'))?.status, 'reserved');
      assert.equal(await store.collection<Visit>('visits').get('v2'), null);
    });

    if (options.reopen) {
      const reopen = options.reopen;
      it('keeps documents, indexes and checkpoints across a close and reopen', async () => {
        const first = await connect();
        await first.ensureIndex('visits', 'status');
        const batch = first.beginBatch();
        for (const v of visits) await batch.collection<Visit>('visits').put(structuredClone(v));
        await batch.commit([{ name: 'visits', version: 2, position: 99 }]);
        await first.close();
        const again = await reopen(first);
        opened.push(again);
        assert.deepEqual(await again.getCheckpoint('visits'), { name: 'visits', version: 2, position: 99 });
        const c = again.collection<Visit>('visits');
        assert.deepEqual(await c.get('v1'), visits[0]);
        assert.deepEqual(ids(await c.find({ status: 'open', tags: 'new' })), ['v1']);
        assert.equal(await c.count({ fee: true }), 1, 'what the store knew of the fields survives too');
      });
    }
    it('puts, gets, patches and deletes documents', async () => {
      const store = await open();
      const items = store.collection<Item>('items');
      await items.put({ _id: 'a', owner: 'x', n: 1 });
      assert.deepEqual(await items.get('a'), { _id: 'a', owner: 'x', n: 1 });
      await items.patch('a', { n: 2 });
      assert.equal((await items.get('a'))?.n, 2);
      await items.patch('missing', { n: 5 });
      assert.equal(await items.get('missing'), null);
      await items.delete('a');
      assert.equal(await items.get('a'), null);
    });

    it('returns copies: changing a result does not change the store', async () => {
      const store = await open();
      const items = store.collection<Item>('items');
      await items.put({ _id: 'a', owner: 'x', n: 1 });
      const got = (await items.get('a'))!;
      got.n = 99;
      assert.equal((await items.get('a'))?.n, 1);
    });

    it('finds with Mongo query semantics, sorts, skips and limits', async () => {
      const store = await open();
      await store.ensureIndex('items', 'owner');
      const items = store.collection<Item>('items');
      for (let i = 0; i < 10; i += 1) await items.put({ _id: `i${i}`, owner: i % 2 ? 'odd' : 'even', n: i, tags: i > 5 ? ['big'] : [] });
      assert.deepEqual((await items.find({ owner: 'odd', n: { $gt: 2 } }, { sort: { n: -1 } })).map((d) => d.n), [9, 7, 5, 3]);
      assert.deepEqual((await items.find({ n: { $in: [1, 2, 3] } }, { sort: { n: 1 }, skip: 1, limit: 1 })).map((d) => d.n), [2]);
      assert.equal(await items.count({ tags: 'big' }), 4);
      await items.patch('i1', { owner: 'even' });
      assert.equal(await items.count({ owner: 'odd' }), 4, 'the index follows patches');
    });

    it('keeps checkpoints and drops a projection', async () => {
      const store = await open();
      await store.setCheckpoint({ name: 'p', version: 1, position: 42 });
      assert.deepEqual(await store.getCheckpoint('p'), { name: 'p', version: 1, position: 42 });
      await store.collection<Item>('p_docs').put({ _id: 'a', owner: 'x', n: 1 });
      await store.drop('p', ['p_docs']);
      assert.equal(await store.getCheckpoint('p'), null);
      assert.equal(await store.collection('p_docs').count(), 0);
    });
  });
}

readStoreContract('memory (embedded)', async () => new MemoryReadStore());

const sqliteDir = mkdtempSync(join(tmpdir(), 'telemed-read-store-'));
after(() => rmSync(sqliteDir, { recursive: true, force: true }));
const sqliteFiles = new Map<ReadStore, string>();
const openSqlite = (filename = join(sqliteDir, `${randomUUID()}.db`)) => {
  const store = new SqliteReadStore({ filename });
  sqliteFiles.set(store, filename);
  return store;
};
readStoreContract('SQLite (embedded, DATA_DIR/read-models.db)', async () => openSqlite(), { reopen: async (previous) => openSqlite(sqliteFiles.get(previous)) });

const mongoUrl = process.env.MONGODB_URL;
if (mongoUrl) {
  // A database per connection, so each case starts empty like the embedded store.
  readStoreContract('MongoDB', () => MongoReadStore.connect(mongoUrl, `telemed_contract_${randomUUID().slice(0, 8)}`));
} else {
  describe('ReadStore contract: MongoDB', () => {
    it('runs when MONGODB_URL is set', { skip: 'not run: MONGODB_URL is not set (no MongoDB server can be installed on this machine)' }, () => {});
  });
}

describe('buffered batches (how a remote read store applies a batch)', () => {
  it('reads see the batch’s own writes; nothing reaches the store before commit; everything after', async () => {
    const backend = new MemoryReadStore();
    await backend.collection<Item>('items').put({ _id: 'kept', owner: 'x', n: 1 });
    await backend.collection<Item>('items').put({ _id: 'gone', owner: 'x', n: 2 });
    const committed: unknown[] = [];
    const batch = new BufferedBatch(backend, async (ops, checkpoints) => {
      committed.push(...ops);
      for (const op of ops) {
        if (op.kind === 'put') await backend.collection(op.collection).put(op.doc);
        else await backend.collection(op.collection).delete(op.id);
      }
      for (const c of checkpoints) await backend.setCheckpoint(c);
    });
    const items = batch.collection<Item>('items');
    await items.put({ _id: 'new', owner: 'x', n: 3 });
    await items.patch('kept', { n: 10 });
    await items.patch('missing', { n: 99 });
    await items.delete('gone');
    assert.deepEqual((await items.find({ owner: 'x' }, { sort: { n: 1 } })).map((d) => [d._id, d.n]), [['new', 3], ['kept', 10]]);
    assert.equal(await items.get('gone'), null);
    assert.equal((await backend.collection<Item>('items').get('kept'))?.n, 1, 'not written before commit');
    await batch.commit([{ name: 'p', version: 1, position: 7 }]);
    assert.equal(committed.length, 3);
    assert.deepEqual((await backend.collection<Item>('items').find({}, { sort: { n: 1 } })).map((d) => d._id), ['new', 'kept']);
    assert.deepEqual(await backend.getCheckpoint('p'), { name: 'p', version: 1, position: 7 });
  });
});

type Loose = { _id: string } & Record<string, unknown>;

describe('SQLite read store: indexes, transactions, one writer', () => {
  const dir = mkdtempSync(join(tmpdir(), 'telemed-sqlite-read-store-'));
  const stores: SqliteReadStore[] = [];
  const open = (file = 'read-models.db') => {
    const store = new SqliteReadStore({ filename: join(dir, file) });
    stores.push(store);
    return store;
  };
  after(async () => {
    for (const store of stores) await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers the routes’ queries through their indexes (EXPLAIN QUERY PLAN)', async () => {
    const store = open('explain.db');
    await store.ensureIndex('slots', 'status');
    await store.ensureCompoundIndex('slots', ['doctor_id', 'start']);
    await store.ensureCompoundIndex('slots', ['status', 'reserved_at']);
    const batch = store.beginBatch();
    for (let i = 0; i < 2000; i += 1) {
      await batch.collection<Loose>('slots').put({
        _id: String(i),
        doctor_id: `d${i % 20}`,
        start: new Date(Date.UTC(2031, 0, 1) + i * 1_800_000).toISOString(),
        status: i % 3 ? 'open' : 'reserved',
        reserved_at: i % 3 ? null : '2031-01-01T00:00:00Z',
      });
    }
    await batch.commit([{ name: 'slots', version: 1, position: 1 }]);
    const plan = (filter: Record<string, unknown>, sort?: Record<string, 1 | -1>) => store.explain('slots', filter, { sort }).join(' | ');
    assert.match(plan({ doctor_id: 'd3', status: 'open', start: { $gt: '2031-01-05' } }, { start: 1 }), /USING INDEX ix_doc_slots_doctor_id_start_\w+ \(<expr>=\? AND <expr>>\?\)/);
    assert.match(plan({ status: 'reserved', reserved_at: { $lte: '2031-02-01' } }, { reserved_at: 1, _id: 1 }), /USING INDEX ix_doc_slots_status_reserved_at_/);
    assert.match(plan({ status: { $in: ['open', 'reserved'] }, doctor_id: 'd1' }), /USING INDEX ix_doc_slots_doctor_id_start_/);
    assert.match(plan({ _id: { $in: ['1', '2'] } }), /USING (INDEX sqlite_autoindex|PRIMARY KEY)/);
    assert.doesNotMatch(plan({ doctor_id: 'd3' }), /SCAN doc_slots\b(?! USING)/);
    const open_ = await store.collection<{ _id: string; start: string }>('slots').find({ doctor_id: 'd3', status: 'open', start: { $gt: '2031-01-05' } }, { sort: { start: 1 }, limit: 3 });
    assert.equal(open_.length, 3);
    assert.ok(open_[0]!.start < open_[1]!.start);
  });

  it('a checksum read a page at a time equals one of the same documents in memory', async () => {
    const projection = { name: 'visits', version: 1, collections: ['visits'], handles: [], apply: async () => {} } as unknown as Projection;
    const file = open('checksum.db');
    const memory = new MemoryReadStore();
    for (const store of [file, memory]) {
      const batch = store.beginBatch();
      // More than one page, ids not in insertion order.
      for (let i = 0; i < 2500; i += 1) await batch.collection<Loose>('visits').put({ _id: `v${(i * 7919) % 2500}`, n: i, note: i % 3 ? null : 'x' });
      await batch.commit([{ name: 'visits', version: 1, position: 1 }]);
    }
    assert.equal(await projectionChecksum(file, projection), await projectionChecksum(memory, projection));
  });

  it("keeps process managers' checkpoints across a reopen (for EventStoreDB without MongoDB, whose log keeps none)", async () => {
    const first = open('subscribers.db');
    assert.equal(await first.load('slot-releaser'), 0, 'a subscriber never saved starts at 0');
    await first.save('slot-releaser', 41);
    await first.save('slot-releaser', 42);
    await first.close();
    const again = open('subscribers.db');
    assert.equal(await again.load('slot-releaser'), 42);
    assert.equal(await again.load('consultation-closer'), 0);
  });

  it('indexes declared on an empty collection are built in one pass by settle, with the documents there', async () => {
    const store = open('settle.db');
    await store.ensureIndex('slots', 'doctor_id');
    const batch = store.beginBatch();
    for (let i = 0; i < 500; i += 1) await batch.collection<Loose>('slots').put({ _id: String(i), doctor_id: `d${i % 20}` });
    await batch.commit([{ name: 'slots', version: 1, position: 1 }]);
    const reader = open('settle.db');
    assert.doesNotMatch(reader.explain('slots', { doctor_id: 'd3' }).join(' | '), /USING INDEX/, 'not maintained row by row while the collection fills');
    await store.settle();
    assert.match(reader.explain('slots', { doctor_id: 'd3' }).join(' | '), /USING INDEX ix_doc_slots_doctor_id_/, 'built for readers too');
    assert.equal(await reader.collection('slots').count({ doctor_id: 'd3' }), 25);
  });

  it('a failed commit leaves neither the documents nor the checkpoint', async () => {
    const store = open('atomic.db');
    const first = store.beginBatch();
    await first.collection<Loose>('items').put({ _id: 'kept', n: 1 });
    await first.commit([{ name: 'items', version: 1, position: 5 }]);
    const batch = store.beginBatch();
    await batch.collection<Loose>('items').put({ _id: 'a', n: 2 });
    await batch.collection<Loose>('items').patch('kept', { n: 3 });
    await batch.collection<Loose>('other').put({ _id: 'b', list: [1] });
    // The checkpoint row is written after the documents; NaN breaks its constraint inside the same transaction.
    await assert.rejects(batch.commit([{ name: 'items', version: 1, position: Number.NaN }]));
    assert.deepEqual(await store.getCheckpoint('items'), { name: 'items', version: 1, position: 5 });
    assert.equal(await store.collection<Loose>('items').get('a'), null);
    assert.equal((await store.collection<Loose>('items').get('kept'))?.n, 1);
    assert.equal(await store.collection<Loose>('other').count(), 0);
    await store.collection<Loose>('other').put({ _id: 'c', v: 1 });
    assert.equal(await store.collection<Loose>('other').count({ v: 1 }), 1, 'the store goes on after the failure');
  });

  it('one process writes a file, others read it as it changes', async () => {
    const writer = open('shared.db');
    const reader = open('shared.db');
    await writer.ensureIndex('items', 'owner');
    await writer.collection<Loose>('items').put({ _id: 'a', owner: 'x', tags: 'one' });
    assert.equal(await reader.collection<Loose>('items').count({ owner: 'x' }), 1);
    const batch = writer.beginBatch();
    await batch.collection<Loose>('items').put({ _id: 'b', owner: 'y', tags: ['one', 'two'] });
    await batch.collection<Loose>('fresh').put({ _id: 'f' });
    await batch.commit([{ name: 'items', version: 1, position: 2 }]);
    assert.equal(await reader.collection<Loose>('items').count({ tags: 'one' }), 2, 'the reader learns that tags now holds arrays');
    assert.equal(await reader.collection<Loose>('fresh').count(), 1, 'and of new collections');
    assert.deepEqual(await reader.getCheckpoint('items'), { name: 'items', version: 1, position: 2 });
    await writer.drop('items', ['items']);
    assert.equal(await reader.collection<Loose>('items').count(), 0, 'and of drops');
    await assert.rejects(reader.collection<Loose>('items').put({ _id: 'z', owner: 'x' }), /held by another process/);
  });
});
