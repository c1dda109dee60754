import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { sampleMessage } from './messaging.test-support';
import { createOutboxSenders, OutboxStore, outboxFile } from './outbox';

function entry(n: number, overrides: Partial<Parameters<OutboxStore['put']>[0]> = {}) {
  const { message_id, idempotency_key, channel, kind, language, to, subject, text } = sampleMessage({ message_id: `msg-${n}`, idempotency_key: `key-${n}` });
  return { message_id, idempotency_key, channel, kind, language, to, subject, text, ...overrides };
}

describe('OutboxStore', () => {
  it('keeps one entry per idempotency key: a second put changes nothing and says so', () => {
    const store = new OutboxStore({ filename: ':memory:', now: () => new Date('2026-03-01T10:00:00Z') });
    try {
      assert.equal(store.put(entry(1)), true);
      assert.equal(store.put(entry(1, { text: 'another text', message_id: 'msg-other' })), false);
      const all = store.list({ limit: 10 });
      assert.equal(all.length, 1);
      assert.deepEqual(all[0], { id: all[0]?.id, ...entry(1), created_at: '2026-03-01T10:00:00.000Z' });
      assert.deepEqual(store.get('key-1'), all[0]);
      assert.equal(store.get('key-unknown'), null);
    } finally {
      store.close();
    }
  });

  it('lists newest first, up to the limit, for one recipient as addressed (trimmed, an e-mail in any case)', () => {
    const store = new OutboxStore({ filename: ':memory:' });
    try {
      store.put(entry(1, { to: 'Meera.Iyer@Example.in' }));
      store.put(entry(2, { channel: 'sms', to: '+919876543210' }));
      store.put(entry(3, { to: 'meera.iyer@example.in ' }));
      store.put(entry(4, { to: 'arjun@example.in' }));
      assert.deepEqual(store.list({ limit: 10 }).map((e) => e.message_id), ['msg-4', 'msg-3', 'msg-2', 'msg-1']);
      assert.deepEqual(store.list({ limit: 2 }).map((e) => e.message_id), ['msg-4', 'msg-3']);
      assert.deepEqual(store.list({ recipient: ' MEERA.IYER@example.IN', limit: 10 }).map((e) => e.message_id), ['msg-3', 'msg-1']);
      assert.deepEqual(store.list({ recipient: '+919876543210', limit: 10 }).map((e) => [e.message_id, e.channel]), [['msg-2', 'sms']]);
      assert.deepEqual(store.list({ recipient: '919876543210', limit: 10 }), []);
      assert.equal(store.list({ limit: 10 })[0]?.to, 'arjun@example.in', 'the address as it was sent to');
    } finally {
      store.close();
    }
  });

  it('keeps only the newest entries past its bound', () => {
    const store = new OutboxStore({ filename: ':memory:', keep: 3 });
    try {
      for (let n = 1; n <= 7; n += 1) store.put(entry(n));
      assert.deepEqual(store.list({ limit: 100 }).map((e) => e.message_id), ['msg-7', 'msg-6', 'msg-5']);
      assert.equal(store.get('key-1'), null);
    } finally {
      store.close();
    }
  });

  it('lives in DATA_DIR/outbox.db, private to the owner, and survives a restart', () => {
    const dir = mkdtempSync(join(tmpdir(), 'outbox-'));
    try {
      const filename = outboxFile(dir);
      assert.equal(filename, join(dir, 'outbox.db'));
      const first = new OutboxStore({ filename });
      first.put(entry(1));
      first.close();
      assert.equal(statSync(filename).mode & 0o077, 0);
      const again = new OutboxStore({ filename });
      try {
        assert.equal(again.put(entry(1)), false);
        assert.deepEqual(again.list({ limit: 10 }).map((e) => e.message_id), ['msg-1']);
      } finally {
        again.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('createOutboxSenders', () => {
  it('stands in for each channel, a repeat naming the same entry', async () => {
    const store = new OutboxStore({ filename: ':memory:' });
    try {
      const senders = createOutboxSenders(store);
      assert.deepEqual(senders.map((s) => [s.channel, s.provider]), [['whatsapp', 'outbox'], ['sms', 'outbox'], ['email', 'outbox']]);
      const sms = senders.find((s) => s.channel === 'sms');
      assert.ok(sms);
      const message = sampleMessage({ channel: 'sms', to: '+919876543210', kind: 'sign_in_code', params: ['482913', '5'], text: 'Your code is 482913' });
      const first = await sms.send(message);
      const repeat = await sms.send(message);
      assert.match(first.provider_message_id, /^outbox-\d+$/);
      assert.deepEqual(repeat, first);
      const [received] = store.list({ recipient: '+919876543210', limit: 1 });
      assert.equal(received?.text, 'Your code is 482913');
      assert.equal(received?.channel, 'sms');
      assert.equal(first.provider_message_id, `outbox-${received?.id}`);
    } finally {
      store.close();
    }
  });
});
