import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { API_TEXTS, streams } from '@telemed/contracts';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { apiSpec, type ApiSpec } from '../support/api-spec';
import { callUnderWay } from '../support/held-appointment';

/**
 * Follow-ups (issue 35): the doctor's final notes saying a follow-up is required offer one (within 7 days, free, unless
 * they say otherwise); the patient books one of that doctor's slots in the window, linked to the earlier consultation;
 * anything else is refused, and one follow-up stands per offer.
 */
describe('follow-ups', () => {
  let t: TestApp;
  let spec: ApiSpec;
  let now = new Date();
  const setNow = (at: Date) => {
    now = at;
  };

  before(async () => {
    t = await startTestApp({ clock: () => now, env: { SWEEP_INTERVAL_MS: '3600000' } });
    spec = apiSpec(t);
  });
  after(() => t.close());

  type FollowUp = { until: string; fee: number; booked_appointment_id: string | null } | null;
  type FollowUpOf = { appointment_id: string; start_at: string } | null;
  type Listed = { appointment_id: string; status: string; follow_up: FollowUp; follow_up_of: FollowUpOf; consultation_fee?: number };
  const listed = async (user: TestUser, id: string) => {
    const list = await spec.read((http) => http.get('/api/v1/appointments/me?status=requested,confirmed,completed,rejected&include_past=true').set(user.auth));
    assert.equal(list.status, 200, list.text);
    return (list.body as Listed[]).find((a) => a.appointment_id === id);
  };
  const book = (patient: TestUser, slot_id: number, follow_up_of: string) =>
    spec.when((http) => http.post('/api/v1/appointments').set(patient.auth).send({ slot_id, notes: 'Review of the fever', follow_up_of }));
  const notes = (id: string, doctor: TestUser, extra: object = {}) =>
    spec.when((http) =>
      http
        .put(`/api/v1/consultations/${id}/notes`)
        .set(doctor.auth)
        .send({ patient_name: 'Ravi Kumar', chief_complaint: 'Fever', follow_up_required: 'routine', is_draft: false, ...extra }),
    );

  /** A consultation both joined and the doctor ended (completed), its notes saved with `extra`: its id and end. */
  async function completedConsultation(doctor: TestUser, patient: TestUser, hour: number, extra: object = {}) {
    const { id, start } = await callUnderWay(t, { doctor, patient, hour, setNow });
    (await notes(id, doctor, extra)).expectStatus(200);
    // A fee held for it is kept now that it took place (issue 36); a free doctor's held none.
    const held = (await t.app.eventStore.readStream(streams.wallet(patient.user_id))).some((e) => e.type === 'FeeHeld' && (e.data as { appointment_id: string }).appointment_id === id);
    (await spec.when((http) => http.post(`/api/v1/consultations/${id}/end`).set(doctor.auth)))
      .expectStatus(200)
      .expectReactions([
        { stream: streams.appointment(id), type: 'AppointmentCompleted' },
        ...(held ? [{ stream: streams.wallet(patient.user_id), type: 'FeeCharged', data: { reason: 'consultation' } }] : []),
      ]);
    return { id, start, end: new Date(start.getTime() + 30 * 60_000) };
  }

  it('the doctor offers a follow-up within 7 days, free; the patient books one of their slots in the window, linked', async () => {
    const doctor = await spec.given.doctor({ doctor: { consultation_fee: 500 } });
    const patient = await spec.given.patient();
    const { id, start } = await callUnderWay(t, { doctor, patient, hour: 10, setNow });
    (await notes(id, doctor))
      .expectStatus(200)
      .expectEvents([
        { stream: streams.consultationNotes(id), type: 'ConsultationNotesSaved' },
        { stream: streams.appointment(id), type: 'AppointmentFollowUpOffered', data: { within_days: 7, fee: 0 } },
      ]);
    // Saved again unchanged: the same offer, nothing more recorded on the appointment.
    (await notes(id, doctor)).expectStatus(200).expectEvents([{ stream: streams.consultationNotes(id), type: 'ConsultationNotesSaved' }]);
    (await spec.when((http) => http.post(`/api/v1/consultations/${id}/end`).set(doctor.auth))).expectStatus(200);

    const until = new Date(start.getTime() + 30 * 60_000 + 7 * 24 * 3600_000);
    const offered = await listed(patient, id);
    assert.equal(offered?.status, 'completed');
    assert.deepEqual({ ...offered?.follow_up, until: new Date(offered?.follow_up?.until ?? 0).toISOString() }, { until: until.toISOString(), fee: 0, booked_appointment_id: null });

    const inside = await spec.given.slot(doctor, { days: 6, time: '11:00' });
    const booked = (await book(patient, inside.slot_id, id))
      .expectStatus(201)
      .expectEvents([
        { stream: streams.slot(inside.slot_id), type: 'SlotReserved' },
        { stream: streams.appointment(id), type: 'AppointmentFollowUpBooked', data: { slot_id: inside.slot_id } },
        { type: 'AppointmentRequested', data: { follow_up_of: { appointment_id: id, start: start.toISOString().replace('.000Z', 'Z') }, fee: 0 } },
      ]);
    const followUpId = (booked.body as { appointment_id: string }).appointment_id;
    assert.equal((await listed(patient, id))?.follow_up?.booked_appointment_id, followUpId);

    // The doctor sees the request as a follow-up of the earlier consultation, at its fee, and reads that consultation's notes.
    const request = await listed(doctor, followUpId);
    assert.deepEqual(request?.follow_up_of && { ...request.follow_up_of, start_at: new Date(request.follow_up_of.start_at).toISOString() }, { appointment_id: id, start_at: start.toISOString() });
    assert.equal(request?.consultation_fee, 0);
    const pending = await spec.read((http) => http.get('/api/v1/appointments/pending').set(doctor.auth));
    assert.equal((pending.body as Listed[]).find((a) => a.appointment_id === followUpId)?.follow_up_of?.appointment_id, id);
    const earlierNotes = await spec.read((http) => http.get(`/api/v1/consultations/${id}/notes`).set(doctor.auth));
    assert.equal(earlierNotes.status, 200, earlierNotes.text);

    // One follow-up per offer: a second is refused while the first stands.
    const another = await spec.given.slot(doctor, { days: 6, time: '12:00' });
    (await book(patient, another.slot_id, id)).expectStatus(409).expectBody({ detail: API_TEXTS.followUpAlreadyBooked, code: 'follow_up_already_booked' }).expectNoEvents();
    // The doctor declines the follow-up: the offer is free again, and a new one is booked on it.
    (await spec.when((http) => http.post(`/api/v1/appointments/${followUpId}/reject`).set(doctor.auth).send({}))).expectStatus(200);
    assert.equal((await listed(patient, id))?.follow_up?.booked_appointment_id, null);
    (await book(patient, another.slot_id, id)).expectStatus(201);
  });

  it('final notes saved again saying no follow-up is needed withdraw an offer not yet taken up; one booked stands', async () => {
    const doctor = await spec.given.doctor();
    const patient = await spec.given.patient();
    const { id } = await completedConsultation(doctor, patient, 14, { follow_up_within_days: 5 });
    assert.ok((await listed(patient, id))?.follow_up, 'offered');
    (await notes(id, doctor, { follow_up_required: 'no' }))
      .expectStatus(200)
      .expectEvents([
        { stream: streams.consultationNotes(id), type: 'ConsultationNotesSaved' },
        { stream: streams.appointment(id), type: 'AppointmentFollowUpWithdrawn', data: { appointment_id: id } },
      ]);
    assert.equal((await listed(patient, id))?.follow_up, null, 'the offer is gone from the patient\'s list');
    const slot = await spec.given.slot(doctor, { days: 3, time: '12:00' });
    (await book(patient, slot.slot_id, id)).expectStatus(409).expectNoEvents();
    // Offered again, booked, then "no" once more: the booking stands with its offer.
    (await notes(id, doctor, { follow_up_required: 'routine' })).expectStatus(200);
    (await book(patient, slot.slot_id, id)).expectStatus(201);
    (await notes(id, doctor, { follow_up_required: 'no' })).expectStatus(200).expectEvents([{ stream: streams.consultationNotes(id), type: 'ConsultationNotesSaved' }]);
    assert.ok((await listed(patient, id))?.follow_up?.booked_appointment_id, 'the booked follow-up stands');
  });

  it('refuses a slot outside the window, another doctor\'s, someone else\'s consultation, one not completed or with no offer', async () => {
    const doctor = await spec.given.doctor({ doctor: { consultation_fee: 500 } });
    const otherDoctor = await spec.given.doctor();
    const patient = await spec.given.patient();
    const stranger = await spec.given.patient();
    const { id, end } = await completedConsultation(doctor, patient, 11, { follow_up_within_days: 3, follow_up_fee: 200 });
    const offered = await listed(patient, id);
    assert.deepEqual({ ...offered?.follow_up, until: new Date(offered?.follow_up?.until ?? 0).toISOString() }, { until: new Date(end.getTime() + 3 * 24 * 3600_000).toISOString(), fee: 200, booked_appointment_id: null });

    const early = await spec.given.slot(doctor, { days: 3, time: '10:00' });
    // A request, not a consultation that took place; and a consultation whose notes asked for no follow-up.
    const { appointment_id: pendingId } = await spec.given.appointment({ doctor, patient, at: { days: 4, time: '09:00' } });
    (await book(patient, early.slot_id, pendingId)).expectStatus(409).expectBody({ detail: API_TEXTS.followUpNotCompleted, code: 'follow_up_not_completed' }).expectNoEvents();
    const { id: noFollowUp } = await completedConsultation(doctor, patient, 14, { follow_up_required: 'no' });
    assert.equal((await listed(patient, noFollowUp))?.follow_up, null);
    (await book(patient, early.slot_id, noFollowUp)).expectStatus(409).expectBody({ detail: API_TEXTS.followUpNotOffered, code: 'follow_up_not_offered' }).expectNoEvents();

    const outside = await spec.given.slot(doctor, { days: 6, time: '11:00' });
    const untilText = new Date(end.getTime() + 3 * 24 * 3600_000).toISOString();
    const windowEnd = `${untilText.slice(0, 10)} ${untilText.slice(11, 16)} UTC`;
    (await book(patient, outside.slot_id, id))
      .expectStatus(409)
      .expectBody({ detail: API_TEXTS.followUpOutsideWindow(windowEnd), code: 'follow_up_outside_window', values: [windowEnd] })
      .expectNoEvents();
    const elsewhere = await spec.given.slot(otherDoctor, { days: 3, time: '11:00' });
    (await book(patient, elsewhere.slot_id, id)).expectStatus(409).expectBody({ detail: API_TEXTS.followUpOtherDoctor, code: 'follow_up_other_doctor' }).expectNoEvents();
    const inside = await spec.given.slot(doctor, { days: 3, time: '11:00' });
    (await book(stranger, inside.slot_id, id)).expectStatus(404).expectBody({ detail: API_TEXTS.appointmentNotFound, code: 'appointment_not_found' }).expectNoEvents();
    (await book(patient, inside.slot_id, 'no-such-appointment')).expectStatus(404).expectNoEvents();

    // Inside the window the patient books it, at the offered fee: that is what is held (the patient's wallet is open
    // from the first consultation's fee).
    (await book(patient, inside.slot_id, id)).expectStatus(201).expectEvents([
      { type: 'SlotReserved' },
      { type: 'FeeHeld', data: { credits: 200 } },
      { type: 'AppointmentFollowUpBooked' },
      { type: 'AppointmentRequested', data: { fee: 200 } },
    ]);
  });

  it('a fee above the doctor\'s own, or a window past 90 days, is refused before the notes are saved', async () => {
    const doctor = await spec.given.doctor({ doctor: { consultation_fee: 500 } });
    const patient = await spec.given.patient();
    const { id } = await callUnderWay(t, { doctor, patient, hour: 15, setNow });
    (await notes(id, doctor, { follow_up_fee: 501 }))
      .expectStatus(422)
      .expectBody({ detail: [{ loc: ['body', 'follow_up_fee'], msg: API_TEXTS.followUpFeeTooHigh('500'), type: 'value_error' }], code: 'validation_failed' })
      .expectNoEvents();
    (await notes(id, doctor, { follow_up_within_days: 91 })).expectStatus(422).expectNoEvents();
    // A draft offers nothing yet.
    (await notes(id, doctor, { is_draft: true })).expectStatus(200).expectEvents([{ type: 'ConsultationNotesSaved' }]);
  });
});
