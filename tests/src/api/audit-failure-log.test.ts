import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createLogger } from '@telemed/platform';
import { startTestApp } from '../support/test-app';
import { logLines } from '../support/log-lines';

// Logs keep an error's kind, code and scrubbed message (platform/src/error-for-log.ts): a read refused because its audit
// could not be written says why, scrubbed, not that "a value that is not an Error was thrown".
describe('an access audit that cannot be written', () => {
  it('is logged with the failure’s kind and scrubbed message', async () => {
    const { lines, destination } = logLines();
    const t = await startTestApp({ logger: createLogger({ level: 'info', destination }) });
    try {
      const operator = await t.createUser('admin');
      await t.createUser('patient');
      await t.settle();
      const store = t.app.eventStore;
      const original = store.appendToStream.bind(store);
      store.appendToStream = async (stream, events, options) => {
        if (stream.startsWith('access_audit-')) throw Object.assign(new Error('disk full while writing for asha.verma@example.in'), { code: 'SQLITE_FULL' });
        return original(stream, events, options);
      };
      try {
        await t.http.get('/api/v1/admin/users').set(operator.auth).expect(503);
      } finally {
        store.appendToStream = original;
      }
      const text = lines.join('');
      assert.ok(!text.includes('asha.verma'), `no address in the logs: ${text}`);
      const line = lines.map((l) => JSON.parse(l) as { msg?: string; err?: { type: string; message: string; code?: string } }).find((l) => l.msg?.startsWith('access audit not written'));
      assert.ok(line, `the refusal is logged: ${text}`);
      assert.deepEqual(
        { type: line.err?.type, message: line.err?.message, code: line.err?.code },
        { type: 'Error', message: 'disk full while writing for [email]', code: 'SQLITE_FULL' },
        'the failure is named, scrubbed',
      );
    } finally {
      await t.close();
    }
  });
});
