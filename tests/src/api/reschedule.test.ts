import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { API_TEXTS, storedInstant, streams } from '@telemed/contracts';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { apiSpec, type ApiSpec } from '../support/api-spec';

/**
 * Moving an appointment (issue 35): the patient takes another open slot of the same doctor; the new slot is held before
 * the old one is freed, a confirmed appointment waits for the doctor again, and the rules (notice, number of moves)
 * are the server's.
 */
describe('reschedule an appointment', () => {
  let t: TestApp;
  let spec: ApiSpec;
  before(async () => {
    t = await startTestApp();
    spec = apiSpec(t);
  });
  after(() => t.close());

  const slotStatus = async (viewer: TestUser, doctorId: string, slotId: number) => {
    const slots = await spec.read((http) => http.get(`/api/v1/doctors/${doctorId}/available-slots`).set(viewer.auth));
    assert.equal(slots.status, 200, slots.text);
    return (slots.body.slots as Array<{ slot_id: number }>).some((s) => s.slot_id === slotId) ? 'open' : 'taken';
  };

  it('a confirmed appointment moves to another open slot: held first, the old one freed, and it waits for the doctor again', async () => {
    const doctor = await spec.given.doctor();
    const patient = await spec.given.patient();
    const { appointment_id, slot } = await spec.given.appointment({ doctor, patient, confirmed: true, at: { days: 3, time: '10:00' } });
    const target = await spec.given.slot(doctor, { days: 4, time: '11:00' });

    (await spec.when((http) => http.post(`/api/v1/appointments/${appointment_id}/reschedule`).set(patient.auth).send({ slot_id: target.slot_id })))
      .expectStatus(200)
      .expectBody({ appointment_id, status: 'requested', slot_id: target.slot_id, start: target.start.toISOString(), end: new Date(target.start.getTime() + 30 * 60_000).toISOString() })
      .expectEvents([
        { stream: streams.slot(target.slot_id), type: 'SlotReserved', data: { appointment_id } },
        { stream: streams.appointment(appointment_id), type: 'AppointmentRescheduled', data: { from_slot_id: slot.slot_id, to_slot_id: target.slot_id, needs_approval: true, move: 1 } },
        { stream: streams.slot(slot.slot_id), type: 'SlotReleased', data: { reason: 'rescheduled' } },
      ]);

    assert.equal(await slotStatus(patient, doctor.user_id, slot.slot_id), 'open', 'the old time is offered again');
    assert.equal(await slotStatus(patient, doctor.user_id, target.slot_id), 'taken');
    const mine = await spec.read((http) => http.get('/api/v1/appointments/me').set(patient.auth));
    const moved = (mine.body as Array<{ appointment_id: string; status: string; reschedules: number; slot: { slot_id: number } }>).find((a) => a.appointment_id === appointment_id);
    assert.deepEqual({ status: moved?.status, slot_id: moved?.slot.slot_id, reschedules: moved?.reschedules }, { status: 'requested', slot_id: target.slot_id, reschedules: 1 });
    // The doctor's requests show it at its new time, moved by the patient from where it was.
    const pending = await spec.read((http) => http.get('/api/v1/appointments/pending').set(doctor.auth));
    const request = (pending.body as Array<{ appointment_id: string; moved_from: unknown; slot: { slot_id: number } }>).find((a) => a.appointment_id === appointment_id);
    assert.deepEqual({ slot_id: request?.slot.slot_id, moved_from: request?.moved_from }, { slot_id: target.slot_id, moved_from: { start_at: storedInstant(slot.start), by: 'patient' } });
    // The doctor approves it again, at its new time.
    (await spec.when((http) => http.post(`/api/v1/appointments/${appointment_id}/approve`).set(doctor.auth))).expectStatus(200);
    const history = await spec.read((http) => http.get(`/api/v1/appointments/${appointment_id}/history`).set(patient.auth));
    assert.ok((history.body.events as Array<{ type: string }>).some((entry) => entry.type === "AppointmentRescheduled"), "the move is in the history");
  });

  it('refuses a taken slot, another doctor\'s, someone else\'s appointment and a third move, writing nothing', async () => {
    const doctor = await spec.given.doctor();
    const other = await spec.given.doctor();
    const patient = await spec.given.patient();
    const stranger = await spec.given.patient();
    const { appointment_id } = await spec.given.appointment({ doctor, patient, at: { days: 3, time: '09:00' } });
    const taken = await spec.given.appointment({ doctor, patient: stranger, at: { days: 3, time: '09:30' } });
    const othersSlot = await spec.given.slot(other, { days: 3, time: '10:00' });
    const free = await spec.given.slot(doctor, { days: 5, time: '09:00' });
    const move = (user: typeof patient, slot_id: number) => spec.when((http) => http.post(`/api/v1/appointments/${appointment_id}/reschedule`).set(user.auth).send({ slot_id }));

    (await move(patient, taken.slot.slot_id)).expectStatus(409).expectNoEvents();
    (await move(patient, othersSlot.slot_id)).expectStatus(409).expectBody({ detail: API_TEXTS.rescheduleOtherDoctor, code: 'reschedule_other_doctor' }).expectNoEvents();
    (await move(stranger, free.slot_id)).expectStatus(404).expectNoEvents();
    (await move(doctor, free.slot_id)).expectStatus(403).expectNoEvents();
    (await move(patient, 999_999_999)).expectStatus(404).expectNoEvents();

    const second = await spec.given.slot(doctor, { days: 5, time: '09:30' });
    const third = await spec.given.slot(doctor, { days: 5, time: '10:00' });
    (await move(patient, free.slot_id)).expectStatus(200);
    (await move(patient, second.slot_id)).expectStatus(200);
    (await move(patient, third.slot_id)).expectStatus(409).expectBody({ detail: API_TEXTS.rescheduleLimit('2'), code: 'reschedule_limit', values: ['2'] }).expectNoEvents();
  });

  it('two moves of one appointment at once: one wins its slot, and no slot is left held by a move that lost', async () => {
    const doctor = await spec.given.doctor();
    const patient = await spec.given.patient();
    const { appointment_id, slot } = await spec.given.appointment({ doctor, patient, at: { days: 3, time: '14:00' } });
    const a = await spec.given.slot(doctor, { days: 6, time: '09:00' });
    const b = await spec.given.slot(doctor, { days: 6, time: '09:30' });
    const answers = await Promise.all([a, b].map((target) => t.http.post(`/api/v1/appointments/${appointment_id}/reschedule`).set(patient.auth).send({ slot_id: target.slot_id })));
    await t.settle();
    const open = await Promise.all([slot, a, b].map((s) => slotStatus(patient, doctor.user_id, s.slot_id)));
    const mine = await spec.read((http) => http.get('/api/v1/appointments/me').set(patient.auth));
    const now = (mine.body as Array<{ appointment_id: string; slot: { slot_id: number } }>).find((x) => x.appointment_id === appointment_id)!.slot;
    // Both may succeed one after the other (two moves); whichever slot it ends on is the only one taken.
    assert.ok(answers.some((r) => r.status === 200), answers.map((r) => r.status).join());
    for (const [i, s] of [slot, a, b].entries()) assert.equal(open[i], s.slot_id === now.slot_id ? 'taken' : 'open', `slot ${i}`);
  });

  it("a move racing the doctor's approval: each is decided on the other's outcome, and exactly one slot stays taken", async () => {
    const doctor = await spec.given.doctor();
    const patient = await spec.given.patient();
    const { appointment_id, slot } = await spec.given.appointment({ doctor, patient, at: { days: 3, time: '15:00' } });
    const target = await spec.given.slot(doctor, { days: 4, time: '15:00' });
    const [moved, approved] = await Promise.all([
      t.http.post(`/api/v1/appointments/${appointment_id}/reschedule`).set(patient.auth).send({ slot_id: target.slot_id }),
      t.http.post(`/api/v1/appointments/${appointment_id}/approve`).set(doctor.auth),
    ]);
    assert.equal(moved.status, 200, moved.text);
    assert.equal(approved.status, 200, approved.text);
    await t.settle();
    const types = (await t.app.eventStore.readStream(streams.appointment(appointment_id))).map((e) => e.type);
    // Approved then moved: waiting for the doctor again; moved then approved: confirmed at its new time.
    const mine = await spec.read((http) => http.get('/api/v1/appointments/me').set(patient.auth));
    const now = (mine.body as Array<{ appointment_id: string; status: string; slot: { slot_id: number } }>).find((a) => a.appointment_id === appointment_id)!;
    const approvedFirst = types.indexOf('AppointmentApproved') < types.indexOf('AppointmentRescheduled');
    assert.deepEqual({ status: now.status, slot: now.slot.slot_id }, { status: approvedFirst ? 'requested' : 'confirmed', slot: target.slot_id });
    assert.equal(await slotStatus(patient, doctor.user_id, slot.slot_id), 'open', 'the old time is free');
    assert.equal(await slotStatus(patient, doctor.user_id, target.slot_id), 'taken');
  });
});
