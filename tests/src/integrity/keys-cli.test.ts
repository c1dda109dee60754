import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { SqliteKeyStore, generateMasterKeyText, parseMasterKey } from '@telemed/platform';
import { tmpDataDir } from '../support/test-app';
import { runNpm } from '../support/processes';

describe('npm run cli -- keys:rotate', () => {
  const dir = tmpDataDir();
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('re-wraps every data key under the new master key; the keys themselves (and so the events) do not change', async () => {
    const oldText = generateMasterKeyText();
    const newText = generateMasterKeyText();
    const oldKey = parseMasterKey(oldText);
    const newKey = parseMasterKey(newText);
    const filename = join(dir, 'keys.db');
    const before = new SqliteKeyStore({ filename, masters: { current: oldKey, previous: [] } });
    const created = await Promise.all(['u1', 'u2', 'u3'].map((s) => before.create(s)));
    await before.close();

    const missingPrevious = await runNpm(['cli', '--', 'keys:rotate'], { DATA_DIR: dir, DATA_MASTER_KEY: newText });
    assert.notEqual(missingPrevious.code, 0);
    assert.match(missingPrevious.stderr, /DATA_MASTER_KEY_PREVIOUS/, 'says which key is missing');

    const run = await runNpm(['cli', '--', 'keys:rotate'], { DATA_DIR: dir, DATA_MASTER_KEY: newText, DATA_MASTER_KEY_PREVIOUS: oldText });
    assert.equal(run.code, 0, run.stderr);
    const printed = JSON.parse(run.stdout) as { store: string; rewrapped: number; unchanged: number; wrapping: unknown };
    assert.deepEqual(printed, { store: 'sqlite', rewrapped: 3, unchanged: 0, wrapping: [{ master_key_id: newKey.id, current: true, keys: 3 }] });
    assert.ok(!run.stdout.includes(newText) && !run.stderr.includes(newText), 'the master key is never printed');

    const afterwards = new SqliteKeyStore({ filename, masters: { current: newKey, previous: [] } });
    for (const key of created) assert.deepEqual((await afterwards.get(key.subject_id))?.key, key.key);
    await afterwards.close();
  });

  it('keys:generate-master prints a usable master key', async () => {
    const run = await runNpm(['cli', '--', 'keys:generate-master'], { DATA_DIR: dir });
    assert.equal(run.code, 0, run.stderr);
    assert.ok(parseMasterKey(run.stdout.trim()).id.startsWith('mk-'));
  });
});
