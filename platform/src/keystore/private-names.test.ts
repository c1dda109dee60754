import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { SqliteEventStore } from '../event-store/sqlite';
import { EncryptingEventStore } from './encrypting-event-store';
import { KeyRing } from './key-ring';
import { generateMasterKeyText, parseMasterKey } from './master-key';
import { privateDigest } from './private-names';
import { SqliteKeyStore } from './sqlite';

describe('privateDigest: keyed digests for names that stand for personal values', () => {
  const dir = mkdtempSync(join(tmpdir(), 'private-names-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const keysFile = join(dir, 'keys.db');
  const open = (current: string, previous: string[] = []) =>
    new EncryptingEventStore(
      new SqliteEventStore({ filename: ':memory:' }),
      new KeyRing(new SqliteKeyStore({ filename: keysFile, masters: { current: parseMasterKey(current), previous: previous.map((p) => parseMasterKey(p)) } })),
    );
  const oldMaster = generateMasterKeyText();
  const newMaster = generateMasterKeyText();

  it('is no plain digest, differs per purpose, and every process on the same key store makes the same one', async () => {
    const one = open(oldMaster);
    const other = open(oldMaster);
    const digest = await privateDigest(one, 'email claim', 'asha@example.in');
    assert.match(digest ?? '', /^[0-9a-f]{64}$/, 'hex of HMAC-SHA-256');
    assert.notEqual(digest, createHash('sha256').update('asha@example.in').digest('hex'), 'not the plain SHA-256');
    assert.equal(await privateDigest(other, 'email claim', 'asha@example.in'), digest, 'another process, the same key store');
    assert.notEqual(await privateDigest(one, 'blog view', 'asha@example.in'), digest, 'another purpose, another subkey');
    await Promise.all([one.close(), other.close()]);
  });

  it('survives a master key rotation once the previous master key is gone', async () => {
    const before = open(oldMaster);
    const digest = await privateDigest(before, 'email claim', 'ravi@example.in');
    await before.close();
    const rotating = new SqliteKeyStore({ filename: keysFile, masters: { current: parseMasterKey(newMaster), previous: [parseMasterKey(oldMaster)] } });
    await rotating.rotate();
    await rotating.close();
    const afterwards = open(newMaster);
    assert.equal(await privateDigest(afterwards, 'email claim', 'ravi@example.in'), digest, 'the same name after the rotation');
    await afterwards.close();
  });

  it('is null for a log without encryption (which keeps its names as before)', async () => {
    const plain = new SqliteEventStore({ filename: ':memory:' });
    assert.equal(await privateDigest(plain, 'email claim', 'asha@example.in'), null, 'no key store, no keyed digest');
    await plain.close();
  });
});
