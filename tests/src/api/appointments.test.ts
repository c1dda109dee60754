import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { API_TEXTS, streams } from '@telemed/contracts';
import { indiaDate, startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { apiSpec, type ApiSpec } from '../support/api-spec';

describe('appointments API', () => {
  let t: TestApp;
  let spec: ApiSpec;

  before(async () => {
    t = await startTestApp();
    spec = apiSpec(t);
  });
  after(() => t.close());

  // The people of a case, new for each case.
  const doctor = () => spec.given.doctor({ name: 'Dr. Asha Menon', doctor: { specialty: 'Pediatrics', consultation_fee: 500 } });
  const patient = () => spec.given.patient({ name: 'Ravi Kumar', phone_number: '+91 91234 56789' });
  const request = (user: TestUser, body: unknown) => spec.when((http) => http.post('/api/v1/appointments').set(user.auth).send(body as object));
  const act = (user: TestUser, id: string, action: 'approve' | 'reject' | 'cancel', body?: object) =>
    spec.when((http) => {
      const req = http.post(`/api/v1/appointments/${id}/${action}`).set(user.auth);
      return body ? req.send(body) : req;
    });
  /** The events a new patient's request for this slot appends: the slot's reservation, the fee held (their wallet opened), then the appointment. */
  const requestedEvents = (slotId: number, appointmentId: string, patientId: string) => [
    { stream: streams.slot(slotId), type: 'SlotReserved' },
    { stream: streams.wallet(patientId), type: 'WalletOpened' },
    { stream: streams.wallet(patientId), type: 'FeeHeld', data: { credits: 500 } },
    { stream: streams.appointment(appointmentId), type: 'AppointmentRequested' },
  ];

  describe('request', () => {
    it('requests a slot: 201 with the appointment id and the log position', async () => {
      const { slot_id } = await spec.given.slot(await doctor());
      const ravi = await patient();
      const res = (await request(ravi, { slot_id, notes: 'Fever for three days' })).expectStatus(201);
      assert.equal(res.body.status, 'requested');
      assert.match(res.body.appointment_id, /^[0-9a-f-]{36}$/);
      assert.ok(Number(res.headers['x-event-position']) > 0);
      res.expectEvents(requestedEvents(slot_id, res.body.appointment_id, ravi.user_id)).expectReactions([]);
    });

    it('a second request for the same slot gets 409 and changes nothing', async () => {
      const { slot } = await spec.given.appointment({ doctor: await doctor(), patient: await patient() });
      const res = (await request(await spec.given.patient(), { slot_id: slot.slot_id, notes: 'Cough' })).expectStatus(409).expectNoEvents();
      assert.equal(res.body.detail, API_TEXTS.slotTaken);
    });

    it('the same patient requesting their own slot again is told so, not that it is booked', async () => {
      const ravi = await patient();
      const { slot } = await spec.given.appointment({ doctor: await doctor(), patient: ravi });
      const res = (await request(ravi, { slot_id: slot.slot_id, notes: 'Fever again' })).expectStatus(409).expectNoEvents();
      assert.equal(res.body.detail, API_TEXTS.slotAlreadyRequested);
    });

    it('an unknown slot is 404', async () => {
      const res = (await request(await patient(), { slot_id: 999_999_999_999, notes: 'x' })).expectStatus(404).expectNoEvents();
      assert.equal(res.body.detail, API_TEXTS.slotNotFound);
    });

    it('a non-integer slot_id is 422 with a field list', async () => {
      const ravi = await patient();
      for (const slot_id of ['12', 1.5, null]) {
        const res = (await request(ravi, { slot_id, notes: 'x' })).expectStatus(422).expectNoEvents();
        assert.deepEqual(res.body.detail[0].loc, ['body', 'slot_id']);
      }
    });

    it('missing or blank notes are 422', async () => {
      const { slot_id } = await spec.given.slot(await doctor());
      const ravi = await patient();
      let res = (await request(ravi, { slot_id })).expectStatus(422).expectNoEvents();
      assert.deepEqual(res.body.detail, [{ loc: ['body', 'notes'], msg: 'Field required', type: 'invalid_type' }]);
      res = (await request(ravi, { slot_id, notes: '   ' })).expectStatus(422).expectNoEvents();
      assert.equal(res.body.detail[0].loc[1], 'notes');
    });

    it('unknown fields are 422', async () => {
      const { slot_id } = await spec.given.slot(await doctor());
      (await request(await patient(), { slot_id, notes: 'x', price: 0 })).expectStatus(422).expectNoEvents();
    });

    it('a doctor cannot request: 403', async () => {
      const asha = await doctor();
      const { slot_id } = await spec.given.slot(asha);
      (await request(asha, { slot_id, notes: 'x' })).expectStatus(403).expectNoEvents();
    });

    it('no token is 401 with a detail; a bad token too', async () => {
      const { slot_id } = await spec.given.slot(await doctor());
      let res = (await spec.when((http) => http.post('/api/v1/appointments').send({ slot_id, notes: 'x' }))).expectStatus(401).expectNoEvents();
      assert.equal(res.body.detail, API_TEXTS.authRequired);
      res = (await spec.when((http) => http.post('/api/v1/appointments').set('Authorization', 'Bearer not.a.jwt').send({}))).expectStatus(401).expectNoEvents();
      assert.equal(res.body.detail, API_TEXTS.invalidToken);
    });

    it('a body over 1 MB is 413', async () => {
      const { slot_id } = await spec.given.slot(await doctor());
      const res = (await request(await patient(), { slot_id, notes: 'x'.repeat(1_100_000) })).expectStatus(413).expectNoEvents();
      assert.equal(res.body.detail, API_TEXTS.bodyTooLarge);
    });

    it('malformed JSON is 400, another media type 415', async () => {
      const ravi = await patient();
      (await spec.when((http) => http.post('/api/v1/appointments').set(ravi.auth).set('Content-Type', 'application/json').send('{"slot_id":'))).expectStatus(400).expectNoEvents();
      (await spec.when((http) => http.post('/api/v1/appointments').set(ravi.auth).set('Content-Type', 'text/plain').send('slot'))).expectStatus(415).expectNoEvents();
    });
  });

  describe('approve, reject, cancel', () => {
    const availableSlots = async (asha: TestUser, reader: TestUser) =>
      ((await spec.read((http) => http.get(`/api/v1/doctors/${asha.user_id}/available-slots`).set(reader.auth).expect(200))).body as { slots: Array<{ slot_id: number }> }).slots;

    it('another doctor gets 404, a patient 403, and nothing changes', async () => {
      const [asha, ravi, otherDoctor] = [await doctor(), await patient(), await spec.given.doctor()];
      const { appointment_id } = await spec.given.appointment({ doctor: asha, patient: ravi, notes: 'Rash on arm' });
      (await act(otherDoctor, appointment_id, 'approve')).expectStatus(404).expectNoEvents();
      (await act(ravi, appointment_id, 'approve')).expectStatus(403).expectNoEvents();
      (await act(asha, 'no-such-id', 'approve')).expectStatus(404).expectNoEvents();
    });

    it("the slot's doctor approves: confirmed", async () => {
      const asha = await doctor();
      const { appointment_id } = await spec.given.appointment({ doctor: asha, patient: await patient(), notes: 'Rash on arm' });
      (await act(asha, appointment_id, 'approve'))
        .expectStatus(200)
        .expectBody({ appointment_id, status: 'confirmed' })
        .expectEvents([{ stream: streams.appointment(appointment_id), type: 'AppointmentApproved' }])
        .expectReactions([]);
    });

    it('a confirmed appointment cannot be rejected: 409', async () => {
      const asha = await doctor();
      const { appointment_id } = await spec.given.appointment({ doctor: asha, patient: await patient(), notes: 'Rash on arm', confirmed: true });
      const res = (await act(asha, appointment_id, 'reject')).expectStatus(409).expectNoEvents();
      assert.match(res.body.detail, /confirmed/);
    });

    it('rejects with the reason as query parameter and frees the slot', async () => {
      const [asha, ravi, otherPatient] = [await doctor(), await patient(), await spec.given.patient()];
      const { appointment_id: id, slot } = await spec.given.appointment({ doctor: asha, patient: otherPatient, notes: 'Headache' });
      const res = (await spec.when((http) => http.post(`/api/v1/appointments/${id}/reject`).query({ rejection_reason: 'Please see a neurologist' }).set(asha.auth)))
        .expectStatus(200)
        .expectEvents([{ stream: streams.appointment(id), type: 'AppointmentRejected', data: { reason: 'Please see a neurologist' } }])
        .expectReactions([
          { stream: streams.slot(slot.slot_id), type: 'SlotReleased' },
          { stream: streams.wallet(otherPatient.user_id), type: 'FeeReturned', data: { credits: 500, reason: 'rejected' } },
        ]);
      assert.equal(res.body.status, 'rejected');
      const mine = await spec.read((http) =>
        http.get('/api/v1/appointments/me?status=rejected&include_past=true').set(otherPatient.auth).set('X-Min-Position', String(res.headers['x-event-position'])).expect(200),
      );
      assert.equal(mine.body[0].rejection_reason, 'Please see a neurologist');
      assert.ok((await availableSlots(asha, ravi)).some((s) => s.slot_id === slot.slot_id), 'the rejected slot is available again');
      (await request(ravi, { slot_id: slot.slot_id, notes: 'Rebooking' })).expectStatus(201);
    });

    it('rejects with the reason in the body', async () => {
      const [asha, otherPatient] = [await doctor(), await spec.given.patient()];
      const { appointment_id: id } = await spec.given.appointment({ doctor: asha, patient: otherPatient, notes: 'Checkup' });
      const res = (await act(asha, id, 'reject', { reason: 'Fully booked' })).expectStatus(200);
      const history = await spec.read((http) => http.get(`/api/v1/appointments/${id}/history`).set(otherPatient.auth).set('X-Min-Position', String(res.headers['x-event-position'])).expect(200));
      const rejected = history.body.events.find((e: { type: string }) => e.type === 'AppointmentRejected');
      assert.equal(rejected.data.reason, 'Fully booked');
    });

    it('the patient cancels; someone else gets 404; the slot is freed', async () => {
      const [asha, ravi, otherPatient, otherDoctor] = [await doctor(), await patient(), await spec.given.patient(), await spec.given.doctor()];
      const { appointment_id: id, slot } = await spec.given.appointment({ doctor: asha, patient: ravi, notes: 'Follow-up' });
      (await act(otherPatient, id, 'cancel')).expectStatus(404).expectNoEvents();
      (await act(otherDoctor, id, 'cancel')).expectStatus(404).expectNoEvents();
      const res = (await act(ravi, id, 'cancel'))
        .expectStatus(200)
        .expectEvents([{ stream: streams.appointment(id), type: 'AppointmentCancelled' }])
        .expectReactions([
          { stream: streams.slot(slot.slot_id), type: 'SlotReleased' },
          { stream: streams.wallet(ravi.user_id), type: 'FeeReturned', data: { credits: 500, reason: 'cancelled' } },
        ]);
      assert.equal(res.body.status, 'cancelled');
      assert.ok((await availableSlots(asha, ravi)).some((s) => s.slot_id === slot.slot_id));
    });

    it('the doctor cancels a confirmed appointment with a reason, which the patient reads on it', async () => {
      const [asha, otherPatient] = [await doctor(), await spec.given.patient()];
      const { appointment_id: id } = await spec.given.appointment({ doctor: asha, patient: otherPatient, notes: 'Vaccination', confirmed: true });
      const res = (await act(asha, id, 'cancel', { reason: 'Emergency' })).expectStatus(200).expectEvents([{ stream: streams.appointment(id), type: 'AppointmentCancelled' }]);
      assert.equal(res.body.status, 'cancelled');
      const listed = await spec.read((http) =>
        http.get('/api/v1/appointments/me?section=past&timezone_str=Asia/Kolkata').set(otherPatient.auth).set('X-Min-Position', String(res.headers['x-event-position'])).expect(200),
      );
      const cancelled = (listed.body as Array<{ appointment_id: string; status_reason: string | null; cancellation_reason: string | null }>).find((a) => a.appointment_id === id);
      assert.deepEqual([cancelled?.status_reason, cancelled?.cancellation_reason], ['cancelled_by_doctor', 'Emergency']);
    });
  });

  describe('reads', () => {
    const nine = { days: 2, time: '09:00' };

    it("patient's /appointments/me has the seeds' patient shape", async () => {
      const ravi = await patient();
      await spec.given.appointment({ doctor: await doctor(), patient: ravi, at: nine });
      const res = (await spec.when((http) => http.get('/api/v1/appointments/me?timezone_str=Asia/Kolkata').set(ravi.auth))).expectStatus(200).expectNoEvents();
      assert.ok(res.body.length >= 1);
      const first = res.body[0];
      // The seeds' fields, with cancellation_reason, consultation_held (a begun consultation cannot be cancelled) and
      // reschedules (how often the patient moved it) and proposal (other times the doctor offered) added.
      assert.deepEqual(Object.keys(first).sort(), ['appointment_id', 'cancellation_reason', 'consultation_held', 'created_at', 'doctor', 'follow_up', 'follow_up_of', 'notes', 'patient', 'proposal', 'rejection_reason', 'reschedules', 'slot', 'status', 'status_reason']);
      assert.equal(first.doctor.name, 'Dr. Asha Menon');
      assert.equal(first.doctor.specialty, 'Pediatrics');
      assert.deepEqual(first.patient, { name: 'Ravi Kumar', phone_number: '+91 91234 56789' });
      assert.equal(first.slot.slot_date, indiaDate(2));
      assert.equal(first.slot.start_time, '09:00:00');
      assert.equal(first.slot.end_time, '09:30:00');
    });

    it("doctor's /appointments/me has the doctor shape, in the caller's zone", async () => {
      const asha = await doctor();
      await spec.given.appointment({ doctor: asha, patient: await patient(), at: nine });
      const res = (await spec.when((http) => http.get('/api/v1/appointments/me?timezone_str=UTC').set(asha.auth))).expectStatus(200);
      const first = res.body[0];
      assert.equal(first.patient_name, 'Ravi Kumar');
      assert.equal(first.slot.start_time, '03:30:00', '09:00 in India is 03:30 UTC');
      assert.equal(first.consultation_fee, 500);
      assert.ok(['requested', 'confirmed'].includes(first.status));
    });

    it('sections: upcoming (requested and confirmed, soonest first) and past (declined and cancelled, with their reasons, latest first)', async () => {
      const [asha, ravi, otherPatient] = [await doctor(), await patient(), await spec.given.patient()];
      const given = (who: TestUser, time: string, confirmed = false) => spec.given.appointment({ doctor: asha, patient: who, at: { days: 2, time }, confirmed });
      await given(ravi, '11:30');
      await given(ravi, '09:30', true);
      const cancelled = await given(ravi, '09:00');
      (await act(ravi, cancelled.appointment_id, 'cancel')).expectStatus(200);
      const declined = await given(ravi, '10:30');
      (await act(asha, declined.appointment_id, 'reject')).expectStatus(200);
      const referred = await given(otherPatient, '10:00');
      (await spec.when((http) => http.post(`/api/v1/appointments/${referred.appointment_id}/reject`).query({ rejection_reason: 'Please see a neurologist' }).set(asha.auth))).expectStatus(200);

      const mine = async (user: TestUser, section: string, limit = '') =>
        (await spec.read((http) => http.get(`/api/v1/appointments/me?section=${section}${limit}`).set(user.auth).expect(200))).body as Array<{
          status: string;
          status_reason: string | null;
          rejection_reason: string | null;
          slot: { start_at: string };
        }>;
      const upcoming = await mine(ravi, 'upcoming');
      assert.ok(upcoming.length >= 1);
      assert.ok(upcoming.every((a) => ['requested', 'confirmed'].includes(a.status)));
      assert.deepEqual(upcoming.map((a) => a.slot.start_at), [...upcoming.map((a) => a.slot.start_at)].sort());
      assert.equal(upcoming.length, 2, 'the requested and the confirmed one');
      const declinedOnes = await mine(otherPatient, 'past');
      assert.ok(declinedOnes.some((a) => a.status === 'rejected' && a.rejection_reason === 'Please see a neurologist'), 'a decline keeps its reason');
      const past = await mine(ravi, 'past');
      assert.ok(past.some((a) => a.status === 'cancelled' && a.status_reason === 'cancelled_by_patient'));
      assert.deepEqual(past.map((a) => a.slot.start_at), [...past.map((a) => a.slot.start_at)].sort().reverse());
      assert.equal(past.length, 2, 'the cancelled and the declined one');
      assert.equal((await mine(ravi, 'past', '&limit=1')).length, 1);
      const doctorPast = await mine(asha, 'past');
      assert.ok(doctorPast.some((a) => a.status === 'rejected'));
      (await spec.when((http) => http.get('/api/v1/appointments/me?section=later').set(ravi.auth))).expectStatus(422).expectNoEvents();
      (await spec.when((http) => http.get('/api/v1/appointments/me?section=past&limit=1000').set(ravi.auth))).expectStatus(422).expectNoEvents();
    });

    it("a slot's facts come from the server: doctor, time, fee, and whether the caller can still request it", async () => {
      const [asha, ravi, otherPatient] = [await doctor(), await patient(), await spec.given.patient()];
      const requested = await spec.given.appointment({ doctor: asha, patient: ravi, at: nine });
      const openSlot = await spec.given.slot(asha, { days: 2, time: '11:30' });
      const facts = async (user: TestUser, slotId: number | string) =>
        spec.when((http) => http.get(`/api/v1/slots/${slotId}?timezone_str=Asia/Kolkata`).set(user.auth));
      const open = (await facts(ravi, openSlot.slot_id)).expectStatus(200).expectNoEvents().body;
      assert.equal(open.availability, 'open');
      assert.deepEqual(open.doctor, { doctor_id: asha.user_id, name: 'Dr. Asha Menon', specialty: 'Pediatrics', qualification: open.doctor.qualification, consultation_fee: 500 });
      assert.equal(open.slot_date, indiaDate(2));
      assert.equal(open.start_time, '11:30:00');
      assert.equal((await facts(ravi, requested.slot.slot_id)).expectStatus(200).body.availability, 'requested_by_you');
      assert.equal((await facts(otherPatient, requested.slot.slot_id)).expectStatus(200).body.availability, 'taken');
      (await facts(ravi, 999_999_999_999)).expectStatus(404).expectNoEvents();
      (await facts(ravi, 'abc')).expectStatus(422).expectNoEvents();
      (await facts(ravi, '-5')).expectStatus(422).expectNoEvents();
    });

    it('an unknown time zone is 422', async () => {
      const ravi = await patient();
      const res = (await spec.when((http) => http.get('/api/v1/appointments/me?timezone_str=Mars/Olympus').set(ravi.auth))).expectStatus(422).expectNoEvents();
      assert.deepEqual(res.body.detail[0].loc, ['query', 'timezone_str']);
    });

    it("pending lists the doctor's requests with created_at and the patient's phone", async () => {
      const [asha, ravi, otherDoctor] = [await doctor(), await patient(), await spec.given.doctor()];
      await spec.given.appointment({ doctor: asha, patient: ravi, at: { days: 2, time: '10:30' }, notes: 'Allergy' });
      const head = await t.app.eventStore.headPosition();
      const res = (await spec.when((http) => http.get('/api/v1/appointments/pending').set(asha.auth).set('X-Min-Position', String(head)))).expectStatus(200);
      const mine = res.body.find((p: { notes: string }) => p.notes === 'Allergy');
      assert.ok(mine);
      assert.equal(mine.patient_phone, '+91 91234 56789');
      assert.ok(mine.created_at);
      assert.equal(mine.slot.start_time, '10:30:00');
      (await spec.when((http) => http.get('/api/v1/appointments/pending').set(ravi.auth))).expectStatus(403).expectNoEvents();
      (await spec.when((http) => http.get('/api/v1/appointments/pending').set(otherDoctor.auth))).expectStatus(200).expectBody([]).expectNoEvents();
    });

    it('history shows every event with actor and time, to participants only', async () => {
      const [asha, otherPatient, ravi, otherDoctor] = [await doctor(), await spec.given.patient(), await patient(), await spec.given.doctor()];
      const { slot_id } = await spec.given.slot(asha);
      const requested = (await request(otherPatient, { slot_id, notes: 'Ear pain' })).expectStatus(201);
      const id = requested.body.appointment_id as string;
      const approved = (await act(asha, id, 'approve')).expectStatus(200);
      const res = (await spec.when((http) => http.get(`/api/v1/appointments/${id}/history`).set(otherPatient.auth).set('X-Min-Position', String(approved.headers['x-event-position'])))).expectStatus(200);
      assert.deepEqual(res.body.events.map((e: { type: string }) => e.type), ['SlotReserved', 'AppointmentRequested', 'AppointmentApproved']);
      const approval = res.body.events[2];
      assert.equal(approval.actor.user_id, asha.user_id);
      assert.equal(approval.actor.role, 'doctor');
      assert.equal(approval.actor.name, 'Dr. Asha Menon');
      assert.ok(Date.parse(approval.occurred_at) > 0);
      (await spec.when((http) => http.get(`/api/v1/appointments/${id}/history`).set(asha.auth))).expectStatus(200);
      (await spec.when((http) => http.get(`/api/v1/appointments/${id}/history`).set(ravi.auth))).expectStatus(404).expectNoEvents();
      (await spec.when((http) => http.get(`/api/v1/appointments/${id}/history`).set(otherDoctor.auth))).expectStatus(404).expectNoEvents();
    });
  });
});
