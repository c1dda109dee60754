import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';

const platform = fileURLToPath(new URL('./index.ts', import.meta.url));

/**
 * A process that reads through a store and never closes it (a script, a one-off tool) ends by itself once its work is
 * done, and its worker threads do not end it while a page it waits for is still on its way.
 */
function runUnclosed(encrypted: boolean) {
  const dir = mkdtempSync(join(tmpdir(), 'unclosed-'));
  const script = join(dir, 'reader.mts');
  writeFileSync(
    script,
    `import { randomUUID } from 'node:crypto';
import { EncryptingEventStore, KeyRing, MemoryKeyStore, SqliteEventStore, generateMasterKeyText, parseMasterKey } from ${JSON.stringify(platform)};
const log = new SqliteEventStore({ filename: ${JSON.stringify(join(dir, 'events.db'))} });
const store = ${encrypted} ? new EncryptingEventStore(log, new KeyRing(new MemoryKeyStore({ current: parseMasterKey(generateMasterKeyText()), previous: [] }))) : log;
const user_id = randomUUID();
const metadata = { actor: { user_id: 's', role: 'system' } };
await store.appendToStream('user-' + user_id, [{ event_id: randomUUID(), type: 'UserRegistered', data: { user_id, email: 'a@b.in', name: 'Meera Iyer', account_type: 'patient', phone_number: null }, metadata }]);
for (let i = 0; i < 999; i += 1) await store.appendToStream('user-' + user_id, [{ event_id: randomUUID(), type: 'UserProfileUpdated', data: { user_id, name: 'Name ' + i }, metadata }]);
let position = 0;
let names = 0;
for (;;) {
  const page = await store.readAll({ fromPosition: position, limit: 250 });
  if (page.length === 0) break;
  names += page.filter((e) => typeof (e.data as { name?: string }).name === 'string' && (e.data as { name: string }).name.startsWith('Name ')).length;
  position = page[page.length - 1].position;
}
console.log('read', names);
`,
  );
  const started = Date.now();
  const run = spawnSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8', timeout: 30_000, env: { ...process.env, LOG_LEVEL: 'silent' } });
  return { ...run, seconds: (Date.now() - started) / 1000 };
}

describe('stores left unclosed', () => {
  for (const encrypted of [false, true]) {
    it(`${encrypted ? 'the decrypting store' : 'the SQLite log'}: read ahead page by page to the end, then the process exits by itself`, () => {
      const run = runUnclosed(encrypted);
      assert.equal(run.signal, null, `killed after ${run.seconds} s: the process did not end by itself`);
      assert.equal(run.status, 0, run.stderr);
      assert.equal(run.stdout.trim(), 'read 999', 'every page was read in clear, none cut short by an early exit');
    });
  }
});
