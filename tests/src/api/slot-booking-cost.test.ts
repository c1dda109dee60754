import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { streams } from '@telemed/contracts';
import { indiaDate, startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { eventsReadFrom } from '../support/stream-reads';

/**
 * A slot's stream gains two events with every request that was rejected or cancelled (reserved, released). Booking
 * it, and the release that follows a rejection, read the events since the slot's last look, not its whole history.
 */
describe("booking a slot does not read the slot's whole history", () => {
  let t: TestApp;
  let doctor: TestUser;
  let patient: TestUser;
  let slotId: number;

  /** The slot releaser (a process manager) has released the slot at this revision (reads that one event). */
  async function released(revision: number) {
    for (let i = 0; i < 200; i += 1) {
      const [event] = await t.app.eventStore.readStream(streams.slot(slotId), { fromRevision: revision, maxCount: 1 });
      if (event?.type === 'SlotReleased') return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    assert.fail('the slot was not released');
  }

  before(async () => {
    t = await startTestApp();
    doctor = await t.createUser('doctor');
    patient = await t.createUser('patient');
    [slotId] = await t.openSlots(doctor, [{ date: indiaDate(3), time: '11:00' }]) as [number];
    // A popular slot: requested and turned down many times.
    for (let i = 0; i < 20; i += 1) {
      const booked = await t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: slotId, notes: `try ${i}` }).expect(201);
      if (i % 2) await t.http.post(`/api/v1/appointments/${booked.body.appointment_id}/reject`).set(doctor.auth).send({ reason: 'Fully booked' }).expect(200);
      else await t.http.post(`/api/v1/appointments/${booked.body.appointment_id}/cancel`).set(patient.auth).expect(200);
      await released(2 + 2 * i);
    }
  });
  after(() => t.close());

  it('reads the events since the last look, and the slot is booked as its history leaves it', async () => {
    const stream = streams.slot(slotId);
    const history = await t.app.eventStore.readStream(stream);
    assert.ok(history.length === 41, `the slot has a long history (${history.map((e) => e.type).join(', ')})`);
    const reads = eventsReadFrom(t.app.eventStore, stream);
    try {
      const booked = await t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: slotId, notes: 'at last' }).expect(201);
      await t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: slotId, notes: 'again' }).expect(409);
      await t.http.post(`/api/v1/appointments/${booked.body.appointment_id}/reject`).set(doctor.auth).send({ reason: 'Away' }).expect(200);
      await released(42);
      await t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: slotId, notes: 'once more' }).expect(201);
    } finally {
      reads.stop();
    }
    assert.ok(reads.counts.length > 0, 'the bookings read the slot');
    assert.ok(reads.counts.every((n) => n <= 3), `each read of the slot (over 40 events) returns the events since the last look (read: ${reads.counts.join(', ')})`);
  });
});
