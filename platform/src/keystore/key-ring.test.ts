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
  store.create = (subjectId: string) => held(create(subjectId));
  store.getByKeyId = (keyId: string) => held(getByKeyId(keyId));
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
