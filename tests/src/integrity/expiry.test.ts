import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { API_TEXTS, streams } from '@telemed/contracts';
import { indiaDate, startTestApp } from '../support/test-app';

describe('a request left unanswered until its start', () => {
  it('expires, frees its slot, and can no longer be approved', async () => {
    let now = Date.now();
    const t = await startTestApp({ clock: () => new Date(now) });
    try {
      const doctor = await t.createUser('doctor');
      const patient = await t.createUser('patient');
      const [earlySlot, slotId, laterSlot] = await t.openSlots(doctor, [
        { date: indiaDate(1), time: '08:30' },
        { date: indiaDate(1), time: '09:00' },
        { date: indiaDate(1), time: '09:30' },
      ]);
      const unanswered = await t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: slotId, notes: 'x' }).expect(201);
      const other = await t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: laterSlot, notes: 'y' }).expect(201);

      const slotStart = Date.parse((await t.app.readStore.collection<{ _id: string; start: string }>('slots').get(String(slotId)))!.start);
      now = slotStart + 60_000;
      const past = await t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: earlySlot, notes: 'late' }).expect(409);
      assert.equal(past.body.detail, API_TEXTS.slotPast);
      const approve = await t.http.post(`/api/v1/appointments/${unanswered.body.appointment_id}/approve`).set(doctor.auth).expect(409);
      assert.match(approve.body.detail, /expired/);

      await t.app.runSweepsNow();
      await t.settle();
      const history = await t.http.get(`/api/v1/appointments/${unanswered.body.appointment_id}/history`).set(patient.auth).expect(200);
      assert.ok(history.body.events.some((e: { type: string; actor: { role: string } }) => e.type === 'AppointmentExpired' && e.actor.role === 'system'));
      const mine = await t.http.get('/api/v1/appointments/me?status=cancelled&include_past=true').set(patient.auth).expect(200);
      assert.deepEqual(mine.body.map((a: { appointment_id: string }) => a.appointment_id), [unanswered.body.appointment_id]);
      const stillRequested = await t.http.get('/api/v1/appointments/me').set(patient.auth).expect(200);
      assert.deepEqual(stillRequested.body.map((a: { appointment_id: string }) => a.appointment_id), [other.body.appointment_id], 'the later request is untouched');
      // settle() waited for the process managers, the slot releaser among them.
      const last = (await t.app.eventStore.readStream(streams.slot(slotId!))).at(-1)!;
      assert.equal(last.type, 'SlotReleased', 'the expired request released its slot');
      assert.equal((last.data as { reason: string }).reason, 'expired');
    } finally {
      await t.close();
    }
  });
});
