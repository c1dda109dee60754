import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { streams, type MessageChannel } from '@telemed/contracts';
import { createOutboxSenders, OutboxStore, SqliteEventStore, type MessageSender } from '@telemed/platform';
import { dispatchDueMessages, handleCommand, messageDecider, messageIdFor, systemContext } from '@telemed/command';
import { messageLookups } from '@telemed/query';
import { startTestApp, tmpDataDir, type TestApp } from '../support/test-app';
import { startServerProcess } from '../support/processes';

/** A zone where it is now between 10:00 and 18:00, so no message of these tests waits for quiet hours to end. */
function daytimeZone(): string {
  const zones = ['Asia/Kolkata', 'Europe/London', 'America/New_York', 'America/Los_Angeles', 'Asia/Tokyo', 'Pacific/Auckland', 'Asia/Dubai', 'America/Sao_Paulo'];
  const hour = (zone: string) => Number(new Intl.DateTimeFormat('en-GB', { hour: '2-digit', hourCycle: 'h23', timeZone: zone }).format(new Date()));
  return zones.find((zone) => hour(zone) >= 10 && hour(zone) < 18) ?? 'Asia/Kolkata';
}

/** Patients reached by e-mail in a daytime zone, and `count` messages to them queued on the log, due at `dueAt`. */
async function queueBurst(t: TestApp, count: number, dueAt: Date): Promise<string[]> {
  const zone = daytimeZone();
  const patients = await Promise.all(Array.from({ length: 10 }, () => t.createUser('patient')));
  for (const patient of patients) {
    await t.http.put('/api/v1/users/me/messaging').set(patient.auth).send({ channels: { email: true, sms: false, whatsapp: false }, time_zone: zone }).expect(200);
  }
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const key = `burst-${dueAt.getTime()}-${i}:prescription_ready:0`;
    const message_id = messageIdFor(key);
    ids.push(message_id);
    await handleCommand(
      t.app.eventStore,
      streams.message(message_id),
      // Queued through the write side's decider, as the notifications process manager queues.
      messageDecider,
      { type: 'QueueMessage', data: { message_id, idempotency_key: key, kind: 'prescription_ready', recipient_id: patients[i % patients.length]!.user_id, appointment_id: `burst-${i}`, offset_minutes: null, start: null, due_at: dueAt.toISOString(), doctor_name: 'Dr. Kavya Rao' } },
      systemContext(new Date(), null),
    );
  }
  return ids;
}

/** Sends through the outbox and counts every send by its key, repeats included (which the outbox itself would drop). */
function countingSenders(outbox: OutboxStore) {
  const sends = new Map<string, number>();
  const senders = new Map<MessageChannel, MessageSender>(
    createOutboxSenders(outbox).map((sender) => [
      sender.channel,
      {
        ...sender,
        send: async (message) => {
          sends.set(message.idempotency_key, (sends.get(message.idempotency_key) ?? 0) + 1);
          // A provider answers in some milliseconds: the replicas' sends overlap as they would.
          await new Promise((resolve) => setTimeout(resolve, 2));
          return sender.send(message);
        },
      },
    ]),
  );
  return { senders, sends };
}

describe('message dispatch delivers each message once', () => {
  it('two dispatchers (two replicas) over one log send each of 300 due messages exactly once', async () => {
    const t = await startTestApp({ env: { MESSAGE_DISPATCH_INTERVAL_MS: '3600000' } });
    try {
      const ids = await queueBurst(t, 300, new Date(Date.now() + 60 * 60_000));
      await t.settle();
      const outbox = new OutboxStore({ filename: ':memory:' });
      const { senders, sends } = countingSenders(outbox);
      const clock = () => new Date(Date.now() + 61 * 60_000);
      const replica = () => dispatchDueMessages({ eventStore: t.app.eventStore, clock, logger: t.app.logger, senders, publicUrl: 'https://telemed.example.in', lookups: messageLookups(t.app.readStore) });
      const [first, second] = await Promise.all([replica(), replica()]);
      assert.equal(first + second, 300, `sent ${first} + ${second}`);
      assert.ok(first > 0 && second > 0, `both replicas sent some (${first}, ${second})`);
      assert.equal(sends.size, 300);
      assert.deepEqual([...new Set(sends.values())], [1], 'no message was sent twice');
      for (const id of ids.slice(0, 50)) {
        const types = (await t.app.eventStore.readStream(streams.message(id))).map((e) => e.type);
        assert.deepEqual(types, ['MessageQueued', 'MessageAttemptStarted', 'MessageSent']);
      }
      outbox.close();
    } finally {
      await t.close();
    }
  });

  it('a kill -9 during a burst of 1500 loses and repeats none: after a restart every message is in the outbox once', { timeout: 120_000 }, async (t) => {
    const dataDir = tmpDataDir();
    const setup = await startTestApp({ dataDir, env: { MESSAGE_DISPATCH_INTERVAL_MS: '3600000' } });
    // Due a little after the setup closes (so only the server below sends them).
    const dueAt = new Date(Date.now() + 15_000);
    const ids = await queueBurst(setup, 1500, dueAt);
    await setup.close({ keepData: true });
    assert.ok(Date.now() < dueAt.getTime(), 'the burst was queued before it fell due');

    const env = { DATA_DIR: dataDir, READ_STORE: 'sqlite', MESSAGE_LEASE_MS: '1000', MESSAGE_DISPATCH_INTERVAL_MS: '500' };
    const server = await startServerProcess(env);
    const outboxFile = join(dataDir, 'outbox.db');
    const count = () => {
      try {
        const db = new Database(outboxFile, { readonly: true, fileMustExist: true });
        try {
          return (db.prepare('SELECT count(*) AS n FROM outbox').get() as { n: number }).n;
        } finally {
          db.close();
        }
      } catch {
        return 0;
      }
    };
    const deadline = Date.now() + 60_000;
    while (count() < 200 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 2));
    server.child.kill('SIGKILL');
    assert.equal(await server.exited, -1, 'killed by a signal');
    const atKill = count();
    t.diagnostic(`${atKill} of 1500 in the outbox when the process was killed`);
    assert.ok(atKill > 0 && atKill < 1500, `killed mid-burst (${atKill})`);

    const restarted = await startServerProcess(env);
    try {
      const until = Date.now() + 60_000;
      while (count() < 1500 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      assert.equal(count(), 1500, 'every message reached the outbox');
      const db = new Database(outboxFile, { readonly: true });
      const keys = db.prepare('SELECT idempotency_key, count(*) AS n FROM outbox GROUP BY idempotency_key HAVING n > 1').all();
      db.close();
      assert.deepEqual(keys, [], 'no message is in the outbox twice');
    } finally {
      restarted.child.kill('SIGTERM');
      await restarted.exited;
    }
    const log = new SqliteEventStore({ filename: join(dataDir, 'events.db') });
    try {
      let retried = 0;
      for (const id of ids) {
        const events = await log.readStream(streams.message(id));
        const sent = events.filter((e) => e.type === 'MessageSent').length;
        assert.equal(sent, 1, `${id}: sent ${sent} times`);
        retried += events.filter((e) => e.type === 'MessageAttemptStarted').length - 1;
      }
      t.diagnostic(`${retried} messages were taken up again after their lease ran out (their process died mid-send)`);
    } finally {
      await log.close();
    }
  });
});
