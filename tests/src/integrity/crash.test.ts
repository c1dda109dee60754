import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { streams } from '@telemed/contracts';
import { indiaDate, startTestApp, tmpDataDir } from '../support/test-app';
import { startServerProcess } from '../support/processes';

/** Starts the server over `dataDir` with a fault that kills it inside this POST, and sees it die there. */
async function killedMidRequest(dataDir: string, fault: string, path: string, auth: { Authorization: string }, body: unknown) {
  const server = await startServerProcess({ DATA_DIR: dataDir, FAULT_INJECTION: fault });
  const attempt = await fetch(`${server.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: auth.Authorization },
    body: JSON.stringify(body),
  }).then(
    (r) => r.status,
    () => 'connection lost',
  );
  assert.equal(attempt, 'connection lost', 'the process died mid-request');
  assert.equal(await server.exited, -1, 'killed by a signal');
}

describe('crash between the slot reservation and the appointment write', () => {
  it('the process is killed after reserving; on restart the orphaned reservation is released', async () => {
    const dataDir = tmpDataDir();
    const setup = await startTestApp({ dataDir });
    const doctor = await setup.createUser('doctor');
    const patient = await setup.createUser('patient');
    const [slotId] = await setup.openSlots(doctor, [{ date: indiaDate(1), time: '20:00' }]);
    await setup.close({ keepData: true });

    await killedMidRequest(dataDir, 'crash-after-slot-reserved', '/api/v1/appointments', patient.auth, { slot_id: slotId, notes: 'Chest pain' });

    const restarted = await startTestApp({ dataDir, env: { RESERVATION_HEAL_GRACE_MS: '0' } });
    try {
      // The start-up sweep may already be running; this joins it or runs a new one.
      await restarted.app.runSweepsNow();
      const slotEvents = await restarted.app.eventStore.readStream(streams.slot(slotId!));
      assert.deepEqual(slotEvents.map((e) => e.type), ['SlotOpened', 'SlotReserved', 'SlotReleased']);
      const released = slotEvents[2]!;
      assert.equal((released.data as { reason: string }).reason, 'orphaned');
      const appointmentId = (slotEvents[1]!.data as { appointment_id: string }).appointment_id;
      // The appointment never appeared: its id is voided (so a request arriving late is refused), nothing else.
      assert.deepEqual((await restarted.app.eventStore.readStream(streams.appointment(appointmentId))).map((e) => e.type), ['AppointmentVoided']);
      assert.equal((released.metadata as { causation_id: string }).causation_id, slotEvents[1]!.event_id);

      await restarted.settle();
      const free = await restarted.http.get(`/api/v1/doctors/${doctor.user_id}/available-slots`).set(patient.auth).expect(200);
      assert.deepEqual(free.body.slots.map((s: { slot_id: number }) => s.slot_id), [slotId]);
      await restarted.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: slotId, notes: 'Chest pain' }).expect(201);
    } finally {
      await restarted.close();
    }
  });
});

describe('crash between holding the new slot of a move and recording the move (issue 35)', () => {
  it('the process is killed after holding; on restart the held slot is released, the appointment keeps its slot, and a late move is refused', async () => {
    const dataDir = tmpDataDir();
    const setup = await startTestApp({ dataDir });
    const doctor = await setup.createUser('doctor');
    const patient = await setup.createUser('patient');
    const [fromSlot, toSlot] = await setup.openSlots(doctor, [
      { date: indiaDate(2), time: '10:00' },
      { date: indiaDate(3), time: '11:00' },
    ]);
    const booked = await setup.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: fromSlot, notes: 'Cough' }).expect(201);
    const appointmentId = booked.body.appointment_id as string;
    await setup.close({ keepData: true });

    await killedMidRequest(dataDir, 'crash-after-move-held', `/api/v1/appointments/${appointmentId}/reschedule`, patient.auth, { slot_id: toSlot });

    const restarted = await startTestApp({ dataDir, env: { RESERVATION_HEAL_GRACE_MS: '0' } });
    try {
      await restarted.app.runSweepsNow();
      const held = await restarted.app.eventStore.readStream(streams.slot(toSlot!));
      assert.deepEqual(held.map((e) => e.type), ['SlotOpened', 'SlotReserved', 'SlotReleased']);
      assert.equal((held[2]!.data as { reason: string }).reason, 'orphaned');
      // Neither slot lost: the appointment still stands on its own, which stays reserved for it.
      const kept = await restarted.app.eventStore.readStream(streams.slot(fromSlot!));
      assert.deepEqual(kept.map((e) => e.type), ['SlotOpened', 'SlotReserved']);
      assert.deepEqual((await restarted.app.eventStore.readStream(streams.appointment(appointmentId))).map((e) => e.type), ['AppointmentRequested', 'AppointmentHoldReleased']);

      await restarted.settle();
      const free = await restarted.http.get(`/api/v1/doctors/${doctor.user_id}/available-slots`).set(patient.auth).expect(200);
      assert.deepEqual(free.body.slots.map((s: { slot_id: number }) => s.slot_id), [toSlot]);
      // The slot the healer gave up is refused to this appointment's move (it took too long); anyone may book it.
      const again = await restarted.http.post(`/api/v1/appointments/${appointmentId}/reschedule`).set(patient.auth).send({ slot_id: toSlot });
      assert.equal(again.status, 409, again.text);
    } finally {
      await restarted.close();
    }
  });
});
