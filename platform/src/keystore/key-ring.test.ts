import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KeyRing } from './key-ring';
import { MemoryKeyStore } from './memory';
import { generateMasterKeyText, parseMasterKey } from './master-key';
import type { DataKey } from './port';

/** A key store whose lookups can be held after they have read the row, until released. */
function heldStore() {
  const store = new MemoryKeyStore({ current: parseMasterKey(generateMasterKeyText()), previous: [] });
  let hold: Promise<void> | null = null;
  let release = () => {};
  const held = <T>(read: Promise<T>) => read.then(async (value) => (hold ? (await hold, value) : value));
  const create = store.create.bind(store);
  const getByKeyId = store.getByKeyId.bind(store);
  const getByKeyIds = store.getByKeyIds.bind(store);
  store.create = (subjectId: string) => held(create(subjectId));
  store.getByKeyId = (keyId: string) => held(getByKeyId(keyId));
  store.getByKeyIds = (keyIds: readonly string[]) => held(getByKeyIds(keyIds));
  return {
    store,
    holdNext() {
      hold = new Promise<void>((resolve) => (release = resolve));
    },
    release() {
      hold = null;
      release();
    },
  };
}

describe('KeyRing: a lookup in flight while the key is destroyed', () => {
  it('keyFor that read the key before the destroy answers null and keeps nothing', async () => {
    const { store, holdNext, release } = heldStore();
    const ring = new KeyRing(store);
    const key = (await store.create('p1')) as DataKey;
    holdNext();
    const inFlight = ring.keyFor('p1');
    await new Promise((r) => setImmediate(r));
    assert.equal(await ring.destroy('p1'), true, 'the key is destroyed');
    release();
    assert.equal(await inFlight, null, 'the lookup that read the key before its destruction does not hand it out');
    assert.equal(await ring.keyFor('p1'), null, 'nor does a later one: no key is kept or made again');
    assert.equal(await ring.keyById(key.key_id), null, 'data written under it stays unreadable');
  });

  it('keyById that read the key before the destroy answers null and keeps nothing', async () => {
    const { store, holdNext, release } = heldStore();
    const ring = new KeyRing(store);
    const key = await store.create('p2');
    holdNext();
    const inFlight = ring.keyById(key.key_id);
    await new Promise((r) => setImmediate(r));
    await ring.destroy('p2');
    release();
    assert.equal(await inFlight, null, 'not handed out after its destruction');
    assert.equal(ring.cachedKeyById(key.key_id), null, 'remembered as destroyed');
  });
});

describe('KeyRing: many keys at once', () => {
  it('answers each id (null: destroyed or unknown) from one store look-up for those it does not hold', async () => {
    const store = new MemoryKeyStore({ current: parseMasterKey(generateMasterKeyText()), previous: [] });
    const [a, b, c] = await Promise.all(['p1', 'p2', 'p3'].map((p) => store.create(p)));
    await store.destroy('p3');
    const ring = new KeyRing(store);
    await ring.keyById(a!.key_id);
    const asked: string[][] = [];
    const getByKeyIds = store.getByKeyIds.bind(store);
    store.getByKeyIds = (ids: readonly string[]) => (asked.push([...ids]), getByKeyIds(ids));
    const keys = await ring.keysById([a!.key_id, b!.key_id, c!.key_id, 'dk-unknown', b!.key_id]);
    assert.deepEqual(asked, [[b!.key_id, c!.key_id, 'dk-unknown']], 'one look-up, for the keys not held');
    assert.deepEqual(keys.get(a!.key_id), a!.key);
    assert.deepEqual(keys.get(b!.key_id), b!.key);
    assert.equal(keys.get(c!.key_id), null, 'destroyed');
    assert.equal(keys.get('dk-unknown'), null, 'unknown');
    assert.equal(ring.cachedKeyById(b!.key_id)?.equals(b!.key), true, 'remembered');
    assert.equal(ring.cachedKeyById(c!.key_id), null, 'remembered as destroyed');
  });

  it('keeps nothing it read before a destroy that happened meanwhile, and looks again', async () => {
    const { store, holdNext, release } = heldStore();
    const key = await store.create('p1');
    const ring = new KeyRing(store);
    holdNext();
    const inFlight = ring.keysById([key.key_id]);
    await new Promise((r) => setImmediate(r));
    assert.equal(await ring.destroy('p1'), true);
    release();
    assert.equal((await inFlight).get(key.key_id), null, 'the key read before its destruction is not handed out');
    assert.equal(ring.cachedKeyById(key.key_id), null);
  });
});
