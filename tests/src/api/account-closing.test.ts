import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { streams, type EventMetadata } from '@telemed/contracts';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { apiSpec, type ApiSpec } from '../support/api-spec';
import { typesByStream } from '../support/spec-streams';

type Listed = { appointment_id: string; status: string; status_reason?: string | null; rejection_reason?: string | null; cancellation_reason?: string | null };

describe('a closed account (erased or deactivated) leaves nobody waiting on it', () => {
  let t: TestApp;
  let spec: ApiSpec;

  before(async () => {
    t = await startTestApp();
    spec = apiSpec(t);
  });
  after(() => t.close());

  const listOf = async (user: TestUser, status: string) =>
    (await spec.read((http) => http.get(`/api/v1/appointments/me?status=${status}&include_past=true`).set(user.auth).expect(200))).body as Listed[];
  const openSlotIds = async (doctor: TestUser, who: TestUser) =>
    ((await spec.read((http) => http.get(`/api/v1/doctors/${doctor.user_id}/available-slots`).set(who.auth).expect(200))).body as { slots: Array<{ slot_id: number }> }).slots.map(
      (s) => s.slot_id,
    );

  it("an erased patient's requested and confirmed appointments are cancelled in their name, and the slots open again", async () => {
    const doctor = await spec.given.doctor();
    const patient = await spec.given.patient();
    const requested = await spec.given.appointment({ doctor, patient, notes: 'Follow-up' });
    const confirmed = await spec.given.appointment({ doctor, patient, notes: 'Follow-up', confirmed: true });

    const erased = (await spec.when((http) => http.post('/api/v1/users/me/erasure').set(patient.auth)))
      .expectStatus(200)
      .expectEvents([{ stream: streams.user(patient.user_id), type: 'PersonalDataErased' }]);
    // The account closer cancels both, the slot releaser frees their slots: each stream's story, whatever their interleaving.
    assert.deepEqual(typesByStream(erased.reactions), {
      [streams.appointment(requested.appointment_id)]: ['AppointmentCancelled'],
      [streams.appointment(confirmed.appointment_id)]: ['AppointmentCancelled'],
      [streams.slot(requested.slot.slot_id)]: ['SlotReleased'],
      [streams.slot(confirmed.slot.slot_id)]: ['SlotReleased'],
    });

    const list = await listOf(doctor, 'requested,confirmed,cancelled');
    for (const { appointment_id } of [requested, confirmed]) {
      const listed = list.find((a) => a.appointment_id === appointment_id);
      assert.deepEqual([listed?.status, listed?.status_reason], ['cancelled', 'cancelled_by_patient']);
    }
    const open = await openSlotIds(doctor, await spec.given.patient());
    assert.ok(open.includes(requested.slot.slot_id) && open.includes(confirmed.slot.slot_id), `the slots are open again: ${JSON.stringify(open)}`);
  });

  it("a deactivated doctor's open slots are withdrawn and their patients' appointments closed by the system: 'Doctor is no longer available'", async () => {
    const doctor = await spec.given.doctor();
    const operator = await t.createUser('admin');
    const patient = await spec.given.patient();
    const requested = await spec.given.appointment({ doctor, patient, notes: 'Follow-up' });
    const confirmed = await spec.given.appointment({ doctor, patient, notes: 'Follow-up', confirmed: true });
    const open = await spec.given.slot(doctor);

    const deactivated = (await spec.when((http) => http.delete(`/api/v1/admin/users/${doctor.user_id}`).set(operator.auth)))
      .expectStatus(200)
      .expectEvents([{ stream: streams.user(doctor.user_id), type: 'UserDeactivated' }]);
    // The closer declines the request and cancels the appointment; every slot of the doctor ends withdrawn, so a closed
    // doctor's booked slot does not open again.
    assert.deepEqual(typesByStream(deactivated.reactions), {
      [streams.appointment(requested.appointment_id)]: ['AppointmentRejected'],
      [streams.appointment(confirmed.appointment_id)]: ['AppointmentCancelled'],
      [streams.slot(requested.slot.slot_id)]: ['SlotReleased', 'SlotWithdrawn'],
      [streams.slot(confirmed.slot.slot_id)]: ['SlotReleased', 'SlotWithdrawn'],
      [streams.slot(open.slot_id)]: ['SlotWithdrawn'],
    });
    for (const event of deactivated.reactions.filter((e) => e.stream_id.startsWith('appointment-'))) {
      assert.deepEqual((event.metadata as EventMetadata).actor, { user_id: 'system', role: 'system' }, `${event.type} is the system's`);
    }

    assert.deepEqual(await openSlotIds(doctor, patient), [], 'no slot of the doctor is bookable');
    const mine = await listOf(patient, 'rejected,cancelled');
    const request = mine.find((a) => a.appointment_id === requested.appointment_id);
    assert.equal(request?.status, 'rejected', 'a pending request is declined');
    assert.equal(request?.rejection_reason, 'Doctor is no longer available');
    const appointment = mine.find((a) => a.appointment_id === confirmed.appointment_id);
    assert.equal(appointment?.status_reason, 'cancelled_by_doctor');
    assert.equal(appointment?.cancellation_reason, 'Doctor is no longer available');
    // A withdrawn slot cannot be requested.
    (await spec.when((http) => http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: open.slot_id, notes: 'Too late' }))).expectStatus(409).expectNoEvents();
  });
});
