import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { API_TEXTS, streams } from '@telemed/contracts';
import { startTestApp, type TestApp } from '../support/test-app';
import { apiSpec, type ApiSpec } from '../support/api-spec';
import { clinicOfTwo, givenInstitution } from '../support/given-institution';

/**
 * Cancellation and reschedule rules per doctor, with clinic defaults (issue 35): a doctor's own rules, else their
 * clinic's, else the product's, decide a patient's move, and the refusal names the rule; the booking page reads them.
 */
describe('booking rules', () => {
  let t: TestApp;
  let spec: ApiSpec;
  before(async () => {
    t = await startTestApp();
    spec = apiSpec(t);
  });
  after(() => t.close());

  const rulesOf = async (doctorId: string) => {
    const res = await spec.read((http) => http.get(`/api/v1/doctors/${doctorId}/booking-rules`));
    assert.equal(res.status, 200, res.text);
    return res.body as Record<string, unknown>;
  };
  const moveTo = (appointmentId: string, slotId: number, auth: Record<string, string>) =>
    spec.when((http) => http.post(`/api/v1/appointments/${appointmentId}/reschedule`).set(auth).send({ slot_id: slotId }));
  const doctorsRules = { min_notice_minutes: 120, max_reschedules: 0, late_cancellation: 'no_show', auto_accept_moves: false };

  it("a doctor's rule of no moves: their page shows it, and a patient's move is refused with 409 naming it, writing nothing", async () => {
    const doctor = await spec.given.doctor();
    const patient = await spec.given.patient();
    assert.deepEqual(await rulesOf(doctor.user_id), {
      doctor_id: doctor.user_id,
      min_notice_minutes: 120,
      max_reschedules: 2,
      late_cancellation: 'cancellation',
      auto_accept_moves: false,
      source: 'default',
    });

    (await spec.when((http) => http.put('/api/v1/doctors/me/booking-rules').set(doctor.auth).send(doctorsRules)))
      .expectStatus(200)
      .expectBody({ doctor_id: doctor.user_id, ...doctorsRules, source: 'doctor' })
      .expectEvents([{ stream: streams.user(doctor.user_id), type: 'DoctorBookingRulesSet', data: { doctor_id: doctor.user_id, ...doctorsRules } }]);
    // Anyone sees them, signed in or not (the booking page shows them before a patient books).
    assert.deepEqual(await rulesOf(doctor.user_id), { doctor_id: doctor.user_id, ...doctorsRules, source: 'doctor' });

    const { appointment_id } = await spec.given.appointment({ doctor, patient, at: { days: 3, time: '10:00' } });
    const target = await spec.given.slot(doctor, { days: 4, time: '10:00' });
    (await moveTo(appointment_id, target.slot_id, patient.auth))
      .expectStatus(409)
      .expectBody({ detail: API_TEXTS.rescheduleLimit('0'), code: 'reschedule_limit', values: ['0'] })
      .expectNoEvents();
    // Setting the same rules again records nothing.
    (await spec.when((http) => http.put('/api/v1/doctors/me/booking-rules').set(doctor.auth).send(doctorsRules))).expectStatus(200).expectNoEvents();
  });

  it("a clinic's defaults apply to its doctor who set none (a notice of a week refuses a move three days ahead), until the doctor sets their own", async () => {
    const clinic = await givenInstitution(spec, clinicOfTwo({ name: 'Rules Clinic', address: 'MG Road', phone: '+91 80 4000 1234', domain: 'rules.in' }));
    const admin = await clinic.member('lata@rules.in', 'patient');
    const doctor = await clinic.member('ananya@rules.in', 'doctor');
    const patient = await spec.given.patient();
    const week = { min_notice_minutes: 10080, max_reschedules: 1, late_cancellation: 'no_show' };

    (await spec.when((http) => http.put(`/api/v1/institutions/${clinic.id}/booking-rules`).set(admin.auth).send(week)))
      .expectStatus(200)
      .expectBody({ institution_id: clinic.id, ...week, no_show_limit: 0, no_show_block_months: 3, set: true })
      .expectEvents([{ stream: streams.institution(clinic.id), type: 'InstitutionBookingRulesSet', data: { institution_id: clinic.id, ...week } }]);
    const shown = await spec.read((http) => http.get(`/api/v1/institutions/${clinic.id}/booking-rules`).set(doctor.auth));
    assert.deepEqual(shown.body, { institution_id: clinic.id, ...week, no_show_limit: 0, no_show_block_months: 3, set: true });
    assert.deepEqual(await rulesOf(doctor.user_id), { doctor_id: doctor.user_id, ...week, auto_accept_moves: false, source: 'institution' });

    const { appointment_id } = await spec.given.appointment({ doctor, patient, at: { days: 3, time: '11:00' } });
    const target = await spec.given.slot(doctor, { days: 8, time: '11:00' });
    (await moveTo(appointment_id, target.slot_id, patient.auth))
      .expectStatus(409)
      .expectBody({ detail: API_TEXTS.rescheduleTooLate('168'), code: 'reschedule_too_late', values: ['168'] })
      .expectNoEvents();

    // The doctor's own rules take the clinic's place.
    await t.http.put('/api/v1/doctors/me/booking-rules').set(doctor.auth).send({ min_notice_minutes: 60, max_reschedules: 2, late_cancellation: 'cancellation', auto_accept_moves: false }).expect(200);
    (await moveTo(appointment_id, target.slot_id, patient.auth)).expectStatus(200);
    assert.equal((await rulesOf(doctor.user_id)).source, 'doctor');

    // Given up, the clinic's apply again; giving them up twice records nothing.
    (await spec.when((http) => http.delete('/api/v1/doctors/me/booking-rules').set(doctor.auth)))
      .expectStatus(200)
      .expectBody({ doctor_id: doctor.user_id, own_rules: false })
      .expectEvents([{ stream: streams.user(doctor.user_id), type: 'DoctorBookingRulesCleared', data: { doctor_id: doctor.user_id } }]);
    assert.deepEqual(await rulesOf(doctor.user_id), { doctor_id: doctor.user_id, ...week, auto_accept_moves: false, source: 'institution' });
    (await spec.when((http) => http.delete('/api/v1/doctors/me/booking-rules').set(doctor.auth))).expectStatus(200).expectNoEvents();
    const back = await spec.given.slot(doctor, { days: 9, time: '11:00' });
    (await moveTo(appointment_id, back.slot_id, patient.auth)).expectStatus(409).expectNoEvents();
  });

  it('a doctor who accepts moves automatically: a confirmed appointment the patient moves stays confirmed', async () => {
    const doctor = await spec.given.doctor();
    const patient = await spec.given.patient();
    await t.http.put('/api/v1/doctors/me/booking-rules').set(doctor.auth).send({ ...doctorsRules, max_reschedules: 2, auto_accept_moves: true }).expect(200);
    const { appointment_id, slot } = await spec.given.appointment({ doctor, patient, confirmed: true, at: { days: 3, time: '15:00' } });
    const target = await spec.given.slot(doctor, { days: 4, time: '15:00' });

    (await moveTo(appointment_id, target.slot_id, patient.auth))
      .expectStatus(200)
      .expectBody({ appointment_id, status: 'confirmed', slot_id: target.slot_id, start: target.start.toISOString(), end: new Date(target.start.getTime() + 30 * 60_000).toISOString() })
      .expectEvents([
        { stream: streams.slot(target.slot_id), type: 'SlotReserved', data: { appointment_id } },
        { stream: streams.appointment(appointment_id), type: 'AppointmentRescheduled', data: { from_slot_id: slot.slot_id, to_slot_id: target.slot_id, needs_approval: false, move: 1 } },
        { stream: streams.slot(slot.slot_id), type: 'SlotReleased', data: { reason: 'rescheduled' } },
      ]);
    const mine = await spec.read((http) => http.get('/api/v1/appointments/me').set(patient.auth));
    const moved = (mine.body as Array<{ appointment_id: string; status: string }>).find((a) => a.appointment_id === appointment_id);
    assert.equal(moved?.status, 'confirmed');
  });

  it("the clinic's rules are its admins' to set: a member without the right gets 403, anyone else 404, and bounds are checked (422)", async () => {
    const clinic = await givenInstitution(spec, clinicOfTwo({ name: 'Guarded Clinic', address: 'Park Street', phone: '+91 33 4000 1234', domain: 'guarded.in' }));
    const other = await givenInstitution(spec, clinicOfTwo({ name: 'Other Clinic', address: 'Anna Salai', phone: '+91 44 4000 1234', domain: 'other.in' }));
    const doctor = await clinic.member('ananya@guarded.in', 'doctor');
    const otherAdmin = await other.member('lata@other.in', 'patient');
    const patient = await spec.given.patient();
    const admin = await clinic.member('lata@guarded.in', 'patient');
    const rules = { min_notice_minutes: 240, max_reschedules: 1, late_cancellation: 'cancellation' };
    const put = (auth: Record<string, string>, body: object = rules) => spec.when((http) => http.put(`/api/v1/institutions/${clinic.id}/booking-rules`).set(auth).send(body));

    (await put(doctor.auth)).expectStatus(403).expectNoEvents();
    (await put(otherAdmin.auth)).expectStatus(404).expectNoEvents();
    (await put(patient.auth)).expectStatus(404).expectNoEvents();
    (await spec.when((http) => http.put(`/api/v1/institutions/${clinic.id}/booking-rules`).send(rules))).expectStatus(401).expectNoEvents();
    (await put(admin.auth, { ...rules, min_notice_minutes: 100 })).expectStatus(422).expectNoEvents();
    (await put(admin.auth, { ...rules, max_reschedules: 6 })).expectStatus(422).expectNoEvents();
    (await put(admin.auth, { ...rules, auto_accept_moves: true })).expectStatus(422).expectNoEvents();
    (await put(clinic.operator.auth)).expectStatus(200);
    const read = await spec.read((http) => http.get(`/api/v1/institutions/${other.id}/booking-rules`).set(otherAdmin.auth));
    assert.deepEqual(read.body, { institution_id: other.id, min_notice_minutes: 120, max_reschedules: 2, late_cancellation: 'cancellation', no_show_limit: 0, no_show_block_months: 3, set: false });
    // A doctor's own rules: doctors only, within the bounds.
    (await spec.when((http) => http.put('/api/v1/doctors/me/booking-rules').set(patient.auth).send(doctorsRules))).expectStatus(403).expectNoEvents();
    (await spec.when((http) => http.put('/api/v1/doctors/me/booking-rules').set(doctor.auth).send({ ...doctorsRules, min_notice_minutes: 10095 }))).expectStatus(422).expectNoEvents();
    assert.equal((await t.http.get(`/api/v1/doctors/${patient.user_id}/booking-rules`)).status, 404, 'a patient has no rules to show');
  });

  it("a late cancellation counts as the clinic's rule says, and a clinic's no-show policy stops a patient who reached it booking its doctors until the date it names", async () => {
    const clinic = await givenInstitution(spec, clinicOfTwo({ name: 'Strict Clinic', address: 'Residency Road', phone: '+91 80 4000 4321', domain: 'strict.in' }));
    const admin = await clinic.member('lata@strict.in', 'patient');
    const doctor = await clinic.member('ananya@strict.in', 'doctor');
    const elsewhere = await spec.given.doctor();
    const patient = await spec.given.patient();
    const policy = { min_notice_minutes: 10080, max_reschedules: 1, late_cancellation: 'no_show', no_show_limit: 1, no_show_block_months: 2 };
    (await spec.when((http) => http.put(`/api/v1/institutions/${clinic.id}/booking-rules`).set(admin.auth).send(policy)))
      .expectStatus(200)
      .expectEvents([{ stream: streams.institution(clinic.id), type: 'InstitutionBookingRulesSet', data: { no_show_limit: 1, no_show_block_months: 2 } }]);

    // Cancelled three days ahead, inside the clinic's week of notice: late, and counted as a no-show.
    const missed = await spec.given.appointment({ doctor, patient, confirmed: true, at: { days: 3, time: '09:00' } });
    (await spec.when((http) => http.post(`/api/v1/appointments/${missed.appointment_id}/cancel`).set(patient.auth).send({})))
      .expectStatus(200)
      .expectEvents([{ stream: streams.appointment(missed.appointment_id), type: 'AppointmentCancelled', data: { cancelled_by: 'patient', late: 'no_show' } }]);
    const mine = await spec.read((http) => http.get('/api/v1/appointments/me?status=cancelled').set(patient.auth));
    assert.equal((mine.body as Array<{ appointment_id: string; status_reason: string }>).find((a) => a.appointment_id === missed.appointment_id)?.status_reason, 'late_no_show');

    const next = await spec.given.slot(doctor, { days: 20, time: '09:00' });
    const until = new Date(missed.slot.start);
    until.setUTCMonth(until.getUTCMonth() + 2);
    const day = until.toISOString().slice(0, 10);
    (await spec.when((http) => http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: next.slot_id, notes: 'Follow-up' })))
      .expectStatus(409)
      .expectBody({ detail: API_TEXTS.bookingBlockedByNoShows('1', '12', day), code: 'booking_blocked_by_no_shows', values: ['1', '12', day] })
      .expectNoEvents();
    // Only that clinic's doctors: another doctor takes the booking.
    const free = await spec.given.slot(elsewhere, { days: 20, time: '09:00' });
    (await spec.when((http) => http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: free.slot_id, notes: 'Cough' }))).expectStatus(201);
    // The doctor's own cancellation is never the patient's miss.
    const other = await spec.given.patient();
    const theirs = await spec.given.appointment({ doctor, patient: other, confirmed: true, at: { days: 3, time: '10:00' } });
    (await spec.when((http) => http.post(`/api/v1/appointments/${theirs.appointment_id}/cancel`).set(doctor.auth).send({}))).expectStatus(200);
    const later = await spec.given.slot(doctor, { days: 21, time: '10:00' });
    (await spec.when((http) => http.post('/api/v1/appointments').set(other.auth).send({ slot_id: later.slot_id, notes: 'Fever' }))).expectStatus(201);
  });
});
