import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { WrongExpectedRevisionError, type EventStore, type NewEvent, type StoredEvent } from '@telemed/platform';

const event = (type = 'Tested', data: unknown = { n: 1 }): NewEvent => ({
  event_id: randomUUID(),
  type,
  data,
  metadata: { actor: { user_id: 't', role: 'system' } },
});

/** What every EventStore adapter must do; run against each adapter whose server is reachable. */
export function eventStoreContract(name: string, open: () => Promise<EventStore>, close?: () => Promise<void>) {
  describe(`EventStore contract: ${name}`, () => {
    let store: EventStore;
    const stream = () => `test-${randomUUID()}`;
    before(async () => {
      store = await open();
    });
    after(async () => {
      await store.close();
      await close?.();
    });

    it('appends to a new stream with no_stream and reads it back in order', async () => {
      const s = stream();
      const result = await store.appendToStream(s, [event('A', { i: 0 }), event('B', { i: 1 })], { expectedRevision: 'no_stream' });
      assert.equal(result.next_revision, 1);
      const read = await store.readStream(s);
      assert.deepEqual(read.map((e) => [e.type, e.revision, e.data]), [
        ['A', 0, { i: 0 }],
        ['B', 1, { i: 1 }],
      ]);
      assert.ok(read[1]!.position > read[0]!.position);
      assert.equal(read[1]!.position, result.position);
    });

    it('reads a stream from a revision on: the tail only, empty past the end or on a missing stream', async () => {
      const s = stream();
      await store.appendToStream(s, [event('A', { i: 0 }), event('B', { i: 1 }), event('C', { i: 2 })], { expectedRevision: 'no_stream' });
      assert.deepEqual((await store.readStream(s, { fromRevision: 1 })).map((e) => [e.type, e.revision]), [
        ['B', 1],
        ['C', 2],
      ]);
      assert.deepEqual((await store.readStream(s, { fromRevision: 0 })).length, 3);
      assert.deepEqual(await store.readStream(s, { fromRevision: 3 }), []);
      assert.deepEqual(await store.readStream(stream(), { fromRevision: 2 }), []);
    });

    it('reads at most maxCount events of a stream from a revision on', async () => {
      const s = stream();
      await store.appendToStream(s, [event('A', { i: 0 }), event('B', { i: 1 }), event('C', { i: 2 })], { expectedRevision: 'no_stream' });
      assert.deepEqual((await store.readStream(s, { fromRevision: 1, maxCount: 1 })).map((e) => [e.type, e.revision]), [['B', 1]]);
      assert.deepEqual((await store.readStream(s, { maxCount: 2 })).map((e) => e.revision), [0, 1]);
      assert.deepEqual(await store.readStream(s, { fromRevision: 3, maxCount: 1 }), []);
    });

    it('reads a missing stream as empty', async () => {
      assert.deepEqual(await store.readStream(stream()), []);
    });

    it('rejects no_stream on an existing stream', async () => {
      const s = stream();
      await store.appendToStream(s, [event()], { expectedRevision: 'no_stream' });
      await assert.rejects(store.appendToStream(s, [event()], { expectedRevision: 'no_stream' }), WrongExpectedRevisionError);
    });

    it('checks an exact expected revision', async () => {
      const s = stream();
      await store.appendToStream(s, [event()], { expectedRevision: 'no_stream' });
      await store.appendToStream(s, [event()], { expectedRevision: 0 });
      await assert.rejects(store.appendToStream(s, [event()], { expectedRevision: 0 }), (e: unknown) => {
        assert.ok(e instanceof WrongExpectedRevisionError);
        assert.equal(e.actual, 1);
        return true;
      });
      assert.equal((await store.readStream(s)).length, 2);
    });

    it('appends with any regardless of revision', async () => {
      const s = stream();
      await store.appendToStream(s, [event()], { expectedRevision: 'any' });
      await store.appendToStream(s, [event()], { expectedRevision: 'any' });
      assert.equal((await store.readStream(s)).length, 2);
    });

    it('lets exactly one of many concurrent writers with the same expected revision win', async () => {
      const s = stream();
      const attempts = await Promise.allSettled(
        Array.from({ length: 20 }, () => store.appendToStream(s, [event()], { expectedRevision: 'no_stream' })),
      );
      assert.equal(attempts.filter((a) => a.status === 'fulfilled').length, 1);
      assert.equal((await store.readStream(s)).length, 1);
    });

    it('a failed append in a batch does not affect the others', async () => {
      const taken = stream();
      await store.appendToStream(taken, [event()], { expectedRevision: 'no_stream' });
      const fresh = Array.from({ length: 5 }, stream);
      const results = await Promise.allSettled([
        store.appendToStream(taken, [event()], { expectedRevision: 'no_stream' }),
        ...fresh.map((s) => store.appendToStream(s, [event()], { expectedRevision: 'no_stream' })),
      ]);
      assert.equal(results[0]!.status, 'rejected');
      assert.ok(results.slice(1).every((r) => r.status === 'fulfilled'));
      for (const s of fresh) assert.equal((await store.readStream(s)).length, 1);
    });

    it('reads all from a position, in position order', async () => {
      const start = await store.headPosition();
      const s = stream();
      await store.appendToStream(s, [event('X'), event('Y'), event('Z')]);
      const all = await store.readAll({ fromPosition: start, limit: 100 });
      assert.deepEqual(all.filter((e) => e.stream_id === s).map((e) => e.type), ['X', 'Y', 'Z']);
      const positions = all.map((e) => e.position);
      assert.deepEqual(positions, [...positions].sort((a, b) => a - b));
      assert.equal((await store.readAll({ fromPosition: start, limit: 2 })).length, 2);
    });

    it('a catch-up subscription delivers history and then live appends, in order', async () => {
      const start = await store.headPosition();
      const s = stream();
      await store.appendToStream(s, [event('Old')]);
      const seen: StoredEvent[] = [];
      let resolveLive!: () => void;
      const live = new Promise<void>((r) => (resolveLive = r));
      const subscription = store.subscribeToAll({
        fromPosition: start,
        onEvents: async (events) => {
          seen.push(...events.filter((e) => e.stream_id === s));
          if (seen.some((e) => e.type === 'New')) resolveLive();
        },
      });
      await store.appendToStream(s, [event('New')]);
      await live;
      await subscription.stop();
      assert.deepEqual(seen.map((e) => e.type), ['Old', 'New']);
    });

    it('a throwing subscriber gets the same batch again', async () => {
      const start = await store.headPosition();
      const s = stream();
      await store.appendToStream(s, [event('Retry')]);
      let calls = 0;
      let resolveDone!: () => void;
      const done = new Promise<void>((r) => (resolveDone = r));
      const subscription = store.subscribeToAll({
        fromPosition: start,
        onEvents: async (events) => {
          if (!events.some((e) => e.stream_id === s)) return;
          calls += 1;
          if (calls === 1) throw new Error('transient');
          resolveDone();
        },
        onError: () => {},
      });
      await done;
      await subscription.stop();
      assert.equal(calls, 2);
    });
  });
}
