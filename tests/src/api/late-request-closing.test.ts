import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { API_TEXTS, streams } from '@telemed/contracts';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { apiSpec, type ApiSpec, type Then } from '../support/api-spec';
import { holdAppend } from '../support/held-append';
import { LOTUS_CLINIC, givenClinicOfTwo } from '../support/given-institution';

/**
 * A booking checks the doctor and the patient, then writes: a deactivation that lands between the check and the
 * request's append comes before the request in the log, so its closer (which closes what the read model shows once it
 * has reached the deactivation) never sees the request. Held here between the check and the writes, the request must
 * still end up closed: in answer to the request itself.
 */
describe('a request recorded after its doctor or patient was deactivated', () => {
  let t: TestApp;
  let spec: ApiSpec;

  before(async () => {
    t = await startTestApp();
    spec = apiSpec(t);
  });
  after(() => t.close());

  const types = async (stream: string) => (await t.app.eventStore.readStream(stream)).map((e) => e.type);
  /**
   * The request was written after its checks passed: the slot's reservation, the fee held when the doctor charges one
   * (a clinic's doctor: its default ₹100; the patient's wallet was opened by an earlier request), then the appointment.
   */
  const expectWritten = (res: Then, slot: number, fee = 0) =>
    res.expectStatus(201).expectEvents([
      { stream: streams.slot(slot), type: 'SlotReserved' },
      ...(fee > 0 ? [{ type: 'FeeHeld', data: { credits: fee } }] : []),
      { stream: streams.appointment(res.body.appointment_id), type: 'AppointmentRequested' },
    ]);

  /**
   * The booking of `slot` for `patient` (the request under test), with `between` run after its checks, just before its
   * first append picked by `at` (the slot's reservation unless told).
   */
  async function bookHeld(
    patient: TestUser,
    slot: number,
    between: () => Promise<void>,
    at = (stream: string, eventTypes: string[]) => stream === streams.slot(slot) && eventTypes.includes('SlotReserved'),
  ): Promise<Then> {
    let held = false;
    const hold = holdAppend(t.app.eventStore, at, async () => {
      held = true;
      await between();
    });
    try {
      const res = await spec.when((http) => http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: slot, notes: 'Fever' }));
      await hold.done;
      assert.ok(held, 'the booking was held');
      return res;
    } finally {
      hold.release();
    }
  }

  /** A doctor on an institution's staff, with the institution's admin and the member's console id. */
  async function clinicDoctor() {
    const { clinicAdmin, doctor, memberId } = await givenClinicOfTwo(spec, LOTUS_CLINIC);
    return { clinicAdmin, doctor, memberId };
  }

  for (const who of ['doctor', 'patient'] as const) {
    const what = who === 'doctor' ? 'the doctor deactivated by their institution' : "the patient's account deactivated";
    it(`${what} between the booking's check and its write: the request is closed`, async () => {
      const admin = await t.createUser('admin');
      const clinic = who === 'doctor' ? await clinicDoctor() : null;
      const doctor = clinic?.doctor ?? (await spec.given.doctor());
      const patient = await spec.given.patient();
      const slot = await spec.given.slot(doctor);
      await t.http.post('/api/v1/users/subscribe').set(patient.auth).send({ doctor_id: doctor.user_id }).expect(200);
      // An earlier request: its closing shows the closer has handled the deactivation.
      const witness = await spec.given.appointment({ doctor, patient, notes: 'x' });
      const res = await bookHeld(patient, slot.slot_id, async () => {
        if (clinic) await t.http.put(`/api/v1/admin/doctors/${clinic.memberId}`).set(clinic.clinicAdmin.auth).send({ is_active: false }).expect(200);
        else await t.http.delete(`/api/v1/admin/users/${patient.user_id}`).set(admin.auth).expect(200);
        await t.settle();
        const done = (await types(streams.appointment(witness.appointment_id))).some((type) => type === 'AppointmentRejected' || type === 'AppointmentCancelled');
        assert.ok(done, 'the closer has run (and found no request on this slot: it is not written yet)');
      });
      const id = expectWritten(res, slot.slot_id, clinic ? 100 : 0).body.appointment_id as string;
      // The late request is closed in answer to it (the doctor's with the closers' reason), its slot released and any
      // fee given back.
      res.expectReactions([
        who === 'doctor'
          ? { stream: streams.appointment(id), type: 'AppointmentRejected', data: { reason: API_TEXTS.doctorNoLongerAvailable } }
          : { stream: streams.appointment(id), type: 'AppointmentCancelled' },
        { stream: streams.slot(slot.slot_id), type: 'SlotReleased' },
        ...(clinic ? [{ stream: streams.wallet(patient.user_id), type: 'FeeReturned', data: { reason: 'rejected' } }] : []),
      ]);
    });
  }

  it("the doctor's own account closed between the slot's reservation and the request's append: the request is rejected and its slot withdrawn, as the account closer does", async () => {
    const admin = await t.createUser('admin');
    const doctor = await spec.given.doctor();
    const patient = await spec.given.patient();
    const slot = await spec.given.slot(doctor);
    const witness = await spec.given.appointment({ doctor, patient, notes: 'x' });
    // Held after the reservation: the account closer finds the slot neither open nor under an appointment.
    const res = await bookHeld(
      patient,
      slot.slot_id,
      async () => {
        await t.http.delete(`/api/v1/admin/users/${doctor.user_id}`).set(admin.auth).expect(200);
        await t.settle();
        assert.ok((await types(streams.slot(witness.slot.slot_id))).includes('SlotWithdrawn'), 'the account closer has closed what it found');
      },
      (_stream, eventTypes) => eventTypes.includes('AppointmentRequested'),
    );
    const id = expectWritten(res, slot.slot_id).body.appointment_id as string;
    // The late request is rejected in answer to it, and its slot withdrawn once released: not offered again.
    res.expectReactions([
      { stream: streams.appointment(id), type: 'AppointmentRejected' },
      { stream: streams.slot(slot.slot_id), type: 'SlotReleased' },
      { stream: streams.slot(slot.slot_id), type: 'SlotWithdrawn' },
    ]);
    assert.ok((await types(streams.appointment(witness.appointment_id))).includes('AppointmentRejected'), 'the earlier request was closed by the account closer');
  });
});
