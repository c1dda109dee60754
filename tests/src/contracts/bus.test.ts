import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InProcessBus, subjectMatches, type BusMessage } from '@telemed/platform';

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

describe('Bus contract: in-process', () => {
  it('delivers to matching subscribers only, in order', async () => {
    const bus = new InProcessBus();
    const got: string[] = [];
    await bus.subscribe('telemed.events.appointment.>', async (m: BusMessage) => void got.push(m.id));
    await bus.publish({ subject: 'telemed.events.appointment.A', id: '1', payload: {} });
    await bus.publish({ subject: 'telemed.events.slot.B', id: '2', payload: {} });
    await bus.publish({ subject: 'telemed.events.appointment.C', id: '3', payload: {} });
    assert.deepEqual(got, ['1', '3']);
  });

  it('a failing subscriber does not stop the others', async () => {
    const errors: unknown[] = [];
    const bus = new InProcessBus({ onHandlerError: (e) => errors.push(e) });
    const got: string[] = [];
    await bus.subscribe('x.>', async () => {
      throw new Error('boom');
    });
    await bus.subscribe('x.>', async (m) => void got.push(m.id));
    await bus.publish({ subject: 'x.y', id: '1', payload: {} });
    assert.deepEqual(got, ['1']);
    assert.equal(errors.length, 1);
  });
});
