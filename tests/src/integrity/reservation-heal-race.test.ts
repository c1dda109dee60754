import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { EventStore } from '@telemed/platform';
import { indiaDate, startTestApp, type TestApp, type TestUser } from '../support/test-app';

/**
 * A booking writes the slot's reservation, then the appointment; the reservation healer releases a reservation whose
 * appointment has not appeared within the grace. A booking slower than the grace (held here between its two writes
 * while the healer runs) must not end up as an appointment on a slot offered again: either the healer's decision is
 * recorded first and the late request is refused, or the request is and the reservation stays.
 */
describe('the reservation healer and a slow booking', () => {
  let t: TestApp;
  let now = Date.now();
  let doctor: TestUser;
  let patient: TestUser;
  let other: TestUser;

  before(async () => {
    t = await startTestApp({ clock: () => new Date(now), env: { SWEEP_INTERVAL_MS: '3600000' } });
    doctor = await t.createUser('doctor', { doctor: { consultation_fee: 40 } });
    patient = await t.createUser('patient');
    other = await t.createUser('patient');
  });
  after(() => t.close());

  it('a request recorded after the healer released its slot is refused, and the slot is booked once', async () => {
    const [slot] = await t.openSlots(doctor, [{ date: indiaDate(2), time: '10:00' }]);
    const store = t.app.eventStore as EventStore;
    const original = store.appendToStream;
    let held = false;
    store.appendToStream = async function (this: EventStore, stream, events, options) {
      if (!held && stream.startsWith('appointment-') && events.some((e) => e.type === 'AppointmentRequested')) {
        held = true;
        // The booking has reserved the slot and decided its request; the grace passes and the healer runs.
        now += 60_000;
        await t.settle();
        await t.app.runSweepsNow();
      }
      return original.call(this, stream, events, options);
    };
    let first: { status: number; body: { appointment_id?: string } };
    try {
      first = await t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: slot, notes: 'Slow network' });
    } finally {
      store.appendToStream = original;
    }
    assert.ok(held, 'the booking was held between its two writes');
    const slotEvents = (await t.app.eventStore.readStream(`slot-${slot}`)).map((e) => e.type);
    assert.equal(slotEvents.at(-1), 'SlotReleased', `the healer released the reservation: ${slotEvents.join(', ')}`);
    assert.equal(first.status, 409, `the late request is refused, not left on a released slot (${first.status})`);

    await t.settle();
    const second = await t.http.post('/api/v1/appointments').set(other.auth).send({ slot_id: slot, notes: 'Fever' });
    assert.equal(second.status, 201, 'the slot is offered again and booked once');
    const requests = (await t.app.eventStore.readAll({ fromPosition: 0, limit: 100_000 })).filter(
      (e) => e.type === 'AppointmentRequested' && (e.data as { slot_id: number }).slot_id === slot,
    );
    assert.equal(requests.length, 1, 'one appointment on the slot: the refused request left none');
  });

  it("a booking held before its fee while the healer voids it: refused, and its fee is given back, not left held (issue 36)", async () => {
    const [slot] = await t.openSlots(doctor, [{ date: indiaDate(2), time: '11:00' }]);
    const store = t.app.eventStore as EventStore;
    const original = store.appendToStream;
    let held = false;
    store.appendToStream = async function (this: EventStore, stream, events, options) {
      if (!held && stream === `wallet-${patient.user_id}` && events.some((e) => e.type === 'FeeHeld')) {
        held = true;
        // The slot is reserved, the fee not yet held: the grace passes, the healer voids the request and the fee
        // settler finds nothing to give back yet.
        now += 60_000;
        await t.settle();
        await t.app.runSweepsNow();
        await t.settle();
      }
      return original.call(this, stream, events, options);
    };
    let answer: { status: number };
    try {
      answer = await t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: slot, notes: 'Slow again' });
    } finally {
      store.appendToStream = original;
    }
    assert.ok(held, 'the booking was held before its fee');
    assert.equal(answer.status, 409, 'the voided request is refused');
    await t.settle();
    const wallet = (await t.http.get('/api/v1/wallet/me').set(patient.auth).expect(200)).body as { held: number };
    assert.equal(wallet.held, 0, 'no fee is left held for a request that never stood');
  });
});
