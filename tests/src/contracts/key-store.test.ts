import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  MemoryKeyStore,
  SqliteKeyStore,
  SubjectErasedError,
  UnknownMasterKeyError,
  loadMasterKeys,
  parseMasterKey,
  generateMasterKeyText,
  type KeyStore,
  type MasterKeys,
} from '@telemed/platform';
import { MongoKeyStore } from '@telemed/platform/servers';
import { createApp } from '@telemed/all-in-one';
import { loadConfig } from '@telemed/platform';
import { tmpDataDir } from '../support/test-app';

const masterA = parseMasterKey(generateMasterKeyText());
const masterB = parseMasterKey(generateMasterKeyText());
const onlyA: MasterKeys = { current: masterA, previous: [] };
const bAfterA: MasterKeys = { current: masterB, previous: [masterA] };

/** Opens a store of one adapter; `reopen` gives the same storage again (for persistence), under other master keys if asked. */
interface Adapter {
  open(masters: MasterKeys): Promise<KeyStore>;
  persistent: boolean;
}

/** What every KeyStore adapter must do. */
function keyStoreContract(name: string, newAdapter: () => Adapter) {
  describe(`KeyStore contract: ${name}`, () => {
    const opened: KeyStore[] = [];
    const open = async (adapter: Adapter, masters: MasterKeys = onlyA) => {
      const store = await adapter.open(masters);
      opened.push(store);
      return store;
    };
    after(async () => {
      for (const store of opened) await store.close().catch(() => {});
    });

    it('creates a random 256-bit key per subject, and gets it by subject and by key id', async () => {
      const store = await open(newAdapter());
      const a = await store.create('user-a');
      const b = await store.create('user-b');
      assert.equal(a.key.length, 32);
      assert.equal(a.subject_id, 'user-a');
      assert.notDeepEqual(a.key, b.key);
      assert.notEqual(a.key_id, b.key_id);
      assert.deepEqual((await store.get('user-a'))?.key, a.key);
      assert.deepEqual((await store.getByKeyId(a.key_id))?.key, a.key);
      assert.equal(await store.get('nobody'), null);
      assert.equal(await store.getByKeyId('dk-nothing'), null);
    });

    it('gets many keys by id in one look-up: those that exist and were not destroyed', async () => {
      const store = await open(newAdapter());
      const a = await store.create('user-many-a');
      const b = await store.create('user-many-b');
      const gone = await store.create('user-many-gone');
      await store.destroy('user-many-gone');
      const found = await store.getByKeyIds([b.key_id, 'dk-nothing', a.key_id, gone.key_id, a.key_id]);
      assert.deepEqual(
        found.map((k) => [k.key_id, k.subject_id, k.key.toString('hex')]).sort(),
        [a, b].map((k) => [k.key_id, k.subject_id, k.key.toString('hex')]).sort(),
      );
      assert.deepEqual(await store.getByKeyIds([]), []);
    });

    it('creates idempotently, also when called at once', async () => {
      const store = await open(newAdapter());
      const keys = await Promise.all(Array.from({ length: 8 }, () => store.create('user-same')));
      for (const key of keys) {
        assert.equal(key.key_id, keys[0]!.key_id);
        assert.deepEqual(key.key, keys[0]!.key);
      }
      assert.equal((await store.create('user-same')).key_id, keys[0]!.key_id);
    });

    it('destroys a key: get answers null (never throws), create refuses, destroy again is a no-op', async () => {
      const store = await open(newAdapter());
      const key = await store.create('user-gone');
      await store.create('user-stays');
      assert.equal(await store.destroy('user-gone'), true);
      assert.equal(await store.get('user-gone'), null);
      assert.equal(await store.getByKeyId(key.key_id), null);
      await assert.rejects(store.create('user-gone'), SubjectErasedError);
      assert.equal(await store.destroy('user-gone'), false);
      assert.equal(await store.destroy('never-there'), false);
      assert.ok(await store.get('user-stays'), 'other keys are untouched');
    });

    it('a destroy leaves a tombstone even where no key was ever made: no key is created under that subject again', async () => {
      const store = await open(newAdapter());
      // An erasure of someone whose key was never made (data from before encryption, a clinical key never needed):
      // a key made afterwards would make what is written later readable, and the erasure would not hold for it.
      assert.equal(await store.destroy('never-keyed'), false, 'nothing was there to destroy');
      await assert.rejects(store.create('never-keyed'), SubjectErasedError, 'no key is made for an erased subject');
      await Promise.all([store.create('raced').catch(() => null), store.destroy('raced')]);
      await assert.rejects(store.create('raced'), SubjectErasedError, 'a create racing a destroy leaves the subject erased');
      assert.equal(await store.get('raced'), null, 'and no key to read');
    });

    it('wraps under the master key: the round trip gives the key back, another master key cannot read it', async () => {
      const adapter = newAdapter();
      const store = await open(adapter);
      const key = await store.create('user-wrap');
      assert.deepEqual(await store.wrapping(), [{ master_key_id: masterA.id, current: true, keys: 1 }]);
      if (!adapter.persistent) return;
      const stranger = await open(adapter, { current: masterB, previous: [] });
      await assert.rejects(stranger.get('user-wrap'), UnknownMasterKeyError);
      const again = await open(adapter);
      assert.deepEqual((await again.get('user-wrap'))?.key, key.key);
    });

    it('rotates: every key is re-wrapped under the new master key, and the old one is no longer needed', async () => {
      const adapter = newAdapter();
      const before = await open(adapter);
      const keys = await Promise.all(['r1', 'r2', 'r3'].map((s) => before.create(s)));
      await before.destroy('r3');
      if (!adapter.persistent) {
        assert.deepEqual(await before.rotate(), { rewrapped: 0, unchanged: 2 });
        return;
      }
      const rotating = await open(adapter, bAfterA);
      assert.deepEqual((await rotating.wrapping()).map((w) => [w.master_key_id, w.current, w.keys]), [[masterA.id, false, 2]]);
      assert.deepEqual(await rotating.rotate(), { rewrapped: 2, unchanged: 0 });
      assert.deepEqual(await rotating.rotate(), { rewrapped: 0, unchanged: 2 }, 'a second run has nothing to do');
      const onlyB = await open(adapter, { current: masterB, previous: [] });
      assert.deepEqual(await onlyB.wrapping(), [{ master_key_id: masterB.id, current: true, keys: 2 }]);
      for (const key of keys.slice(0, 2)) {
        const got = await onlyB.get(key.subject_id);
        assert.deepEqual(got?.key, key.key, 'the same data key: events encrypted with it stay readable');
        assert.equal(got?.key_id, key.key_id);
      }
      assert.equal(await onlyB.get('r3'), null, 'a destroyed key stays destroyed');
    });

    it('persists across reopening', async (t) => {
      const adapter = newAdapter();
      if (!adapter.persistent) return t.skip('in memory only');
      const first = await open(adapter);
      const key = await first.create('user-persist');
      await first.close();
      const second = await open(adapter);
      assert.deepEqual((await second.get('user-persist'))?.key, key.key);
    });
  });
}

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
const sqliteAdapter = (): Adapter & { file: string } => {
  const dir = tmpDataDir();
  dirs.push(dir);
  const file = join(dir, 'keys.db');
  return { file, persistent: true, open: async (masters) => new SqliteKeyStore({ filename: file, masters }) };
};

keyStoreContract('memory', () => {
  const store = new MemoryKeyStore(onlyA);
  return { persistent: false, open: async () => store };
});
keyStoreContract('SQLite (embedded)', sqliteAdapter);

const mongoUrl = process.env.MONGODB_URL;
if (mongoUrl) {
  keyStoreContract('MongoDB', () => {
    // A database per adapter, so each case starts empty like the embedded store.
    const database = `telemed_keys_${randomUUID().slice(0, 8)}`;
    return { persistent: true, open: (masters) => MongoKeyStore.connect(mongoUrl, database, masters) };
  });
} else {
  describe('KeyStore contract: MongoDB', () => {
    it('runs when MONGODB_URL is set', { skip: 'not run: MONGODB_URL is not set (no MongoDB server can be installed on this machine)' }, () => {});
  });
}

describe('KeyStore on SQLite: what the files hold', () => {
  const filesOf = (file: string) => [file, `${file}-wal`, `${file}-journal`].filter((f) => existsSync(f) && statSync(f).size > 0);
  const contains = (bytes: Buffer, needle: Buffer) => bytes.indexOf(needle) !== -1;
  const forms = (key: Buffer) => [key, Buffer.from(key.toString('hex')), Buffer.from(key.toString('base64')), Buffer.from(key.toString('base64url'))];

  it('never holds a data key in clear (raw, hex or base64)', async () => {
    const adapter = sqliteAdapter();
    const store = await adapter.open(onlyA);
    const keys = await Promise.all(Array.from({ length: 20 }, (_, i) => store.create(`user-${i}`)));
    const gone = await store.create('user-erased');
    await store.destroy('user-erased');
    await store.close();
    const bytes = Buffer.concat(filesOf(adapter.file).map((f) => readFileSync(f)));
    assert.ok(bytes.length > 0);
    for (const key of [...keys, gone]) {
      for (const form of forms(key.key)) assert.ok(!contains(bytes, form), `data key of ${key.subject_id} found in the file`);
    }
    assert.ok(contains(bytes, Buffer.from(keys[0]!.key_id)), 'the file is the key store (sanity check of the search)');
  });

  it('leaves no copy of a destroyed wrap in the files', async () => {
    const adapter = sqliteAdapter();
    const store = await adapter.open(onlyA);
    await store.create('user-kept');
    await store.create('user-erased');
    // The wrap is the master key's AES-GCM output; read it from the live file to search for it afterwards.
    const Database = (await import('better-sqlite3')).default;
    const peek = new Database(adapter.file, { readonly: true });
    const wrapped = (peek.prepare('SELECT wrapped FROM data_keys WHERE subject_id = ?').get('user-erased') as { wrapped: Buffer }).wrapped;
    peek.close();
    assert.equal(wrapped.length, 12 + 32 + 16);
    await store.destroy('user-erased');
    const bytes = Buffer.concat(filesOf(adapter.file).map((f) => readFileSync(f)));
    assert.ok(!contains(bytes, wrapped), 'the destroyed wrap is gone from the database and its log');
    await store.close();
  });
});

describe('master keys', () => {
  it('are generated into DATA_DIR/master-key outside production and kept', () => {
    const dir = tmpDataDir();
    dirs.push(dir);
    const first = loadMasterKeys({ dataDir: dir, production: false });
    assert.ok(existsSync(join(dir, 'master-key')));
    assert.equal((statSync(join(dir, 'master-key')).mode & 0o777).toString(8), '600');
    assert.equal(loadMasterKeys({ dataDir: dir, production: false }).current.id, first.current.id);
  });

  it('are required in production, with a clear message: the product does not start without one', async () => {
    assert.throws(() => loadMasterKeys({ dataDir: '/nonexistent', production: true }), /DATA_MASTER_KEY must be set in production/);
    const dir = tmpDataDir();
    dirs.push(dir);
    const production = { NODE_ENV: 'production', DATA_DIR: dir, LOG_LEVEL: 'silent', TOKEN_SECRET: 'x'.repeat(40), GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 'secret' };
    await assert.rejects(createApp({ config: loadConfig(production) }), /DATA_MASTER_KEY must be set in production/);
    assert.ok(!existsSync(join(dir, 'master-key')), 'never generated in production');
  });

  it('take base64 or hex of 32 bytes, and previous ones for rotation', () => {
    const raw = randomBytes(32);
    assert.equal(parseMasterKey(raw.toString('base64')).id, parseMasterKey(raw.toString('hex')).id);
    assert.throws(() => parseMasterKey('too-short'), /32 random bytes/);
    const keys = loadMasterKeys({ masterKey: raw.toString('base64'), previous: `${generateMasterKeyText()}, ${raw.toString('hex')}`, dataDir: '/nonexistent', production: true });
    assert.equal(keys.previous.length, 1, 'the current key is not also a previous one');
    assert.ok(!keys.current.id.includes(raw.toString('hex').slice(0, 8)), 'the id says nothing about the key');
  });
});
