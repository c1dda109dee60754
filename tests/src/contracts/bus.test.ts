import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { connect } from 'nats';
import { InProcessBus, subjectMatches, type Bus, type BusMessage } from '@telemed/platform';
import { NatsBus } from '@telemed/platform/servers';
import { natsReachable, natsUrl } from '../support/nats';

describe('subject matching (NATS semantics)', () => {
  const cases: Array<[string, string, boolean]> = [
    ['telemed.events.>', 'telemed.events.appointment.AppointmentRequested', true],
    ['telemed.events.*.AppointmentApproved', 'telemed.events.appointment.AppointmentApproved', true],
    ['telemed.events.*', 'telemed.events.appointment.X', false],
    ['telemed.events.>', 'telemed.events', false],
    ['a.b', 'a.b', true],
    ['a.b', 'a.b.c', false],
  ];
  for (const [pattern, subject, expected] of cases) {
    it(`${pattern} ${expected ? 'matches' : 'does not match'} ${subject}`, () => assert.equal(subjectMatches(pattern, subject), expected));
  }
});

async function waitFor(check: () => boolean, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** What every Bus adapter must do. `durable`: a named consumer resumes after it was away. */
function busContract(name: string, options: { durable: boolean; open: (prefix: string) => Promise<Bus>; cleanup?: (prefix: string) => Promise<void> }) {
  describe(`Bus contract: ${name}`, () => {
    const prefix = `t${randomUUID().slice(0, 8)}`;
    let bus: Bus;
    before(async () => {
      bus = await options.open(prefix);
    });
    after(async () => {
      await bus.close();
      await options.cleanup?.(prefix);
    });
    const subject = (rest: string) => `${prefix}.events.${rest}`;

    it('delivers to matching subscribers only, in order', async () => {
      const got: string[] = [];
      const sub = await bus.subscribe(subject('appointment.>'), async (m: BusMessage) => void got.push(m.id));
      await bus.publish({ subject: subject('appointment.A'), id: randomUUID() + '-1', payload: { n: 1 } });
      await bus.publish({ subject: subject('slot.B'), id: randomUUID() + '-2', payload: { n: 2 } });
      await bus.publish({ subject: subject('appointment.C'), id: randomUUID() + '-3', payload: { n: 3 } });
      await bus.publish({ subject: subject('slot.D'), id: randomUUID() + '-4', payload: { n: 4 } });
      // Delivered in order: once the last matching one has come, anything before it that was to come has.
      await bus.publish({ subject: subject('appointment.E'), id: randomUUID() + '-5', payload: { n: 5 } });
      await waitFor(() => got.some((id) => id.endsWith('-5')));
      assert.deepEqual(got.map((id) => id.slice(-1)), ['1', '3', '5']);
      await sub.unsubscribe();
    });

    it('drops a message whose id it has just seen', async () => {
      const got: unknown[] = [];
      const sub = await bus.subscribe(subject('dedupe.>'), async (m) => void got.push(m.payload));
      const id = randomUUID();
      await bus.publish({ subject: subject('dedupe.X'), id, payload: { first: true } });
      await bus.publish({ subject: subject('dedupe.X'), id, payload: { first: false } });
      await bus.publish({ subject: subject('dedupe.X'), id: randomUUID(), payload: { other: true } });
      // Delivered in order: once this one has come, a duplicate that was to come has.
      await bus.publish({ subject: subject('dedupe.X'), id: randomUUID(), payload: { last: true } });
      await waitFor(() => got.length >= 3);
      assert.deepEqual(got, [{ first: true }, { other: true }, { last: true }]);
      await sub.unsubscribe();
    });

    it('a handler that throws gets the message again', async () => {
      let calls = 0;
      const sub = await bus.subscribe(subject('retry.>'), async () => {
        calls += 1;
        if (calls === 1) throw new Error('transient');
      });
      await bus.publish({ subject: subject('retry.X'), id: randomUUID(), payload: {} });
      await waitFor(() => calls >= 2, 8000);
      await sub.unsubscribe();
    });

    if (options.durable) {
      it('a durable consumer gets, after a restart, what was published while it was away', async () => {
        const got: string[] = [];
        const durableName = `${prefix}-notifier`;
        let sub = await bus.subscribe(subject('durable.>'), async (m) => void got.push(m.id), { durableName });
        await bus.publish({ subject: subject('durable.X'), id: 'before', payload: {} });
        await waitFor(() => got.includes('before'));
        await sub.unsubscribe();
        await bus.publish({ subject: subject('durable.X'), id: 'while-away', payload: {} });
        sub = await bus.subscribe(subject('durable.>'), async (m) => void got.push(m.id), { durableName });
        await waitFor(() => got.includes('while-away'));
        assert.deepEqual(got, ['before', 'while-away']);
        await sub.unsubscribe();
      });
    }
  });
}

busContract('in-process (embedded)', { durable: false, open: async () => new InProcessBus() });

if (await natsReachable()) {
  busContract(`NATS JetStream (${natsUrl})`, {
    durable: true,
    open: (prefix) => NatsBus.connect({ servers: natsUrl, stream: prefix.toUpperCase(), subjects: [`${prefix}.events.>`] }),
    cleanup: async (prefix) => {
      const nc = await connect({ servers: natsUrl });
      await (await nc.jetstreamManager()).streams.delete(prefix.toUpperCase()).catch(() => {});
      await nc.close();
    },
  });
} else {
  describe('Bus contract: NATS JetStream', () => {
    it('runs when a NATS server is reachable', { skip: `not run: no NATS server at ${natsUrl}` }, () => {});
  });
}
