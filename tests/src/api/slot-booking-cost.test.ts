import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { streams } from '@telemed/contracts';
import { startTestApp, type TestApp } from '../support/test-app';
import { apiSpec, type ApiSpec } from '../support/api-spec';
import { eventsReadFrom } from '../support/stream-reads';

/**
 * A slot's stream gains two events with every request that was rejected or cancelled (reserved, released). Booking
 * it, and the release that follows a rejection, read the events since the slot's last look, not its whole history.
 */
describe("booking a slot does not read the slot's whole history", () => {
  let t: TestApp;
  let spec: ApiSpec;

  before(async () => {
    t = await startTestApp();
    spec = apiSpec(t);
  });
  after(() => t.close());

  it('reads the events since the last look, and the slot is booked as its history leaves it', async () => {
    const doctor = await spec.given.doctor();
    const patient = await spec.given.patient();
    const { slot_id: slotId } = await spec.given.slot(doctor, { days: 3, time: '11:00' });
    const stream = streams.slot(slotId);
    const book = (notes: string) => spec.when((http) => http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: slotId, notes }));
    const reject = (id: string, reason: string) => spec.when((http) => http.post(`/api/v1/appointments/${id}/reject`).set(doctor.auth).send({ reason }));
    // A popular slot: requested and turned down many times (each time released by the slot releaser, waited for).
    for (let i = 0; i < 20; i += 1) {
      const booked = (await book(`try ${i}`)).expectStatus(201);
      const id = booked.body.appointment_id as string;
      const turnedDown = i % 2 ? await reject(id, 'Fully booked') : await spec.when((http) => http.post(`/api/v1/appointments/${id}/cancel`).set(patient.auth));
      turnedDown.expectStatus(200).expectReactions([{ stream, type: 'SlotReleased' }]);
    }

    const history = await t.app.eventStore.readStream(stream);
    assert.ok(history.length === 41, `the slot has a long history (${history.map((e) => e.type).join(', ')})`);
    const reads = eventsReadFrom(t.app.eventStore, stream);
    try {
      const booked = (await book('at last')).expectStatus(201);
      (await book('again')).expectStatus(409).expectNoEvents();
      (await reject(booked.body.appointment_id, 'Away')).expectStatus(200).expectReactions([{ stream, type: 'SlotReleased' }]);
      (await book('once more')).expectStatus(201);
    } finally {
      reads.stop();
    }
    assert.ok(reads.counts.length > 0, 'the bookings read the slot');
    assert.ok(reads.counts.every((n) => n <= 3), `each read of the slot (over 40 events) returns the events since the last look (read: ${reads.counts.join(', ')})`);
  });
});
