import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { API_TEXTS } from '@telemed/contracts';
import { indiaDate, startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { eventually } from '../support/eventually';

describe('appointments API', () => {
  let t: TestApp;
  let doctor: TestUser;
  let otherDoctor: TestUser;
  let patient: TestUser;
  let otherPatient: TestUser;
  let slots: number[];

  before(async () => {
    t = await startTestApp();
    doctor = await t.createUser('doctor', { name: 'Dr. Asha Menon', doctor: { specialty: 'Pediatrics', consultation_fee: 500 } });
    otherDoctor = await t.createUser('doctor');
    patient = await t.createUser('patient', { name: 'Ravi Kumar', phone_number: '+91 91234 56789' });
    otherPatient = await t.createUser('patient');
    slots = await t.openSlots(
      doctor,
      ['09:00', '09:30', '10:00', '10:30', '11:00', '11:30'].map((time) => ({ date: indiaDate(2), time })),
    );
    assert.equal(slots.length, 6);
  });
  after(() => t.close());

  const request = (user: TestUser, body: unknown) => t.http.post('/api/v1/appointments').set(user.auth).send(body as object);

  async function unchangedLog<T>(action: () => Promise<T>): Promise<T> {
    await t.settle(); // what earlier requests set going (a process manager's answer) is written before the count starts
    const head = await t.app.eventStore.headPosition();
    const result = await action();
    assert.equal(await t.app.eventStore.headPosition(), head, 'a refused request must not write events');
    return result;
  }

  describe('request', () => {
    it('requests a slot: 201 with the appointment id and the log position', async () => {
      const res = await request(patient, { slot_id: slots[0], notes: 'Fever for three days' }).expect(201);
      assert.equal(res.body.status, 'requested');
      assert.match(res.body.appointment_id, /^[0-9a-f-]{36}$/);
      assert.ok(Number(res.headers['x-event-position']) > 0);
    });

    it('a second request for the same slot gets 409 and changes nothing', async () => {
      const res = await unchangedLog(() => request(otherPatient, { slot_id: slots[0], notes: 'Cough' }).expect(409));
      assert.equal(res.body.detail, API_TEXTS.slotTaken);
    });

    it('the same patient requesting their own slot again is told so, not that it is booked', async () => {
      const res = await unchangedLog(() => request(patient, { slot_id: slots[0], notes: 'Fever again' }).expect(409));
      assert.equal(res.body.detail, API_TEXTS.slotAlreadyRequested);
    });

    it('an unknown slot is 404', async () => {
      const res = await unchangedLog(() => request(patient, { slot_id: 999_999_999_999, notes: 'x' }).expect(404));
      assert.equal(res.body.detail, API_TEXTS.slotNotFound);
    });

    it('a non-integer slot_id is 422 with a field list', async () => {
      for (const slot_id of ['12', 1.5, null]) {
        const res = await unchangedLog(() => request(patient, { slot_id, notes: 'x' }).expect(422));
        assert.deepEqual(res.body.detail[0].loc, ['body', 'slot_id']);
      }
    });

    it('missing or blank notes are 422', async () => {
      let res = await unchangedLog(() => request(patient, { slot_id: slots[1] }).expect(422));
      assert.deepEqual(res.body.detail, [{ loc: ['body', 'notes'], msg: 'Field required', type: 'invalid_type' }]);
      res = await unchangedLog(() => request(patient, { slot_id: slots[1], notes: '   ' }).expect(422));
      assert.equal(res.body.detail[0].loc[1], 'notes');
    });

    it('unknown fields are 422', async () => {
      await unchangedLog(() => request(patient, { slot_id: slots[1], notes: 'x', price: 0 }).expect(422));
    });

    it('a doctor cannot request: 403', async () => {
      await unchangedLog(() => request(doctor, { slot_id: slots[1], notes: 'x' }).expect(403));
    });

    it('no token is 401 with a detail; a bad token too', async () => {
      let res = await t.http.post('/api/v1/appointments').send({ slot_id: slots[1], notes: 'x' }).expect(401);
      assert.equal(res.body.detail, API_TEXTS.authRequired);
      res = await t.http.post('/api/v1/appointments').set('Authorization', 'Bearer not.a.jwt').send({}).expect(401);
      assert.equal(res.body.detail, API_TEXTS.invalidToken);
    });

    it('a body over 1 MB is 413', async () => {
      const res = await unchangedLog(() => request(patient, { slot_id: slots[1], notes: 'x'.repeat(1_100_000) }).expect(413));
      assert.equal(res.body.detail, API_TEXTS.bodyTooLarge);
    });

    it('malformed JSON is 400, another media type 415', async () => {
      await t.http.post('/api/v1/appointments').set(patient.auth).set('Content-Type', 'application/json').send('{"slot_id":').expect(400);
      await t.http.post('/api/v1/appointments').set(patient.auth).set('Content-Type', 'text/plain').send('slot').expect(415);
    });
  });

  describe('approve, reject, cancel', () => {
    let appointmentId: string;
    before(async () => {
      appointmentId = (await request(patient, { slot_id: slots[1], notes: 'Rash on arm' }).expect(201)).body.appointment_id;
    });

    it('another doctor gets 404, a patient 403, and nothing changes', async () => {
      await unchangedLog(() => t.http.post(`/api/v1/appointments/${appointmentId}/approve`).set(otherDoctor.auth).expect(404));
      await unchangedLog(() => t.http.post(`/api/v1/appointments/${appointmentId}/approve`).set(patient.auth).expect(403));
      await unchangedLog(() => t.http.post(`/api/v1/appointments/no-such-id/approve`).set(doctor.auth).expect(404));
    });

    it("the slot's doctor approves: confirmed", async () => {
      const res = await t.http.post(`/api/v1/appointments/${appointmentId}/approve`).set(doctor.auth).expect(200);
      assert.deepEqual(res.body, { appointment_id: appointmentId, status: 'confirmed' });
    });

    it('a confirmed appointment cannot be rejected: 409', async () => {
      const res = await t.http.post(`/api/v1/appointments/${appointmentId}/reject`).set(doctor.auth).expect(409);
      assert.match(res.body.detail, /confirmed/);
    });

    it('rejects with the reason as query parameter and frees the slot', async () => {
      const id = (await request(otherPatient, { slot_id: slots[2], notes: 'Headache' }).expect(201)).body.appointment_id;
      const res = await t.http
        .post(`/api/v1/appointments/${id}/reject`)
        .query({ rejection_reason: 'Please see a neurologist' })
        .set(doctor.auth)
        .expect(200);
      assert.equal(res.body.status, 'rejected');
      const mine = await t.http
        .get('/api/v1/appointments/me?status=rejected&include_past=true')
        .set(otherPatient.auth)
        .set('X-Min-Position', String(res.headers['x-event-position']))
        .expect(200);
      assert.equal(mine.body[0].rejection_reason, 'Please see a neurologist');
      await eventually(async () => {
        const free = await t.http.get(`/api/v1/doctors/${doctor.user_id}/available-slots`).set(patient.auth).expect(200);
        assert.ok(free.body.slots.some((s: { slot_id: number }) => s.slot_id === slots[2]), 'the rejected slot is available again');
      });
      await request(patient, { slot_id: slots[2], notes: 'Rebooking' }).expect(201);
    });

    it('rejects with the reason in the body', async () => {
      const id = (await request(otherPatient, { slot_id: slots[3], notes: 'Checkup' }).expect(201)).body.appointment_id;
      const res = await t.http.post(`/api/v1/appointments/${id}/reject`).set(doctor.auth).send({ reason: 'Fully booked' }).expect(200);
      const history = await t.http
        .get(`/api/v1/appointments/${id}/history`)
        .set(otherPatient.auth)
        .set('X-Min-Position', String(res.headers['x-event-position']))
        .expect(200);
      const rejected = history.body.events.find((e: { type: string }) => e.type === 'AppointmentRejected');
      assert.equal(rejected.data.reason, 'Fully booked');
    });

    it('the patient cancels; someone else gets 404; the slot is freed', async () => {
      const id = (await request(patient, { slot_id: slots[4], notes: 'Follow-up' }).expect(201)).body.appointment_id;
      await unchangedLog(() => t.http.post(`/api/v1/appointments/${id}/cancel`).set(otherPatient.auth).expect(404));
      await unchangedLog(() => t.http.post(`/api/v1/appointments/${id}/cancel`).set(otherDoctor.auth).expect(404));
      const res = await t.http.post(`/api/v1/appointments/${id}/cancel`).set(patient.auth).expect(200);
      assert.equal(res.body.status, 'cancelled');
      await eventually(async () => {
        const free = await t.http.get(`/api/v1/doctors/${doctor.user_id}/available-slots`).set(patient.auth).expect(200);
        assert.ok(free.body.slots.some((s: { slot_id: number }) => s.slot_id === slots[4]));
      });
    });

    it('the doctor cancels a confirmed appointment with a reason, which the patient reads on it', async () => {
      const id = (await request(otherPatient, { slot_id: slots[5], notes: 'Vaccination' }).expect(201)).body.appointment_id;
      await t.http.post(`/api/v1/appointments/${id}/approve`).set(doctor.auth).expect(200);
      const res = await t.http.post(`/api/v1/appointments/${id}/cancel`).set(doctor.auth).send({ reason: 'Emergency' }).expect(200);
      assert.equal(res.body.status, 'cancelled');
      const listed = await t.http.get('/api/v1/appointments/me?section=past&timezone_str=Asia/Kolkata').set(otherPatient.auth).set('X-Min-Position', String(res.headers['x-event-position'])).expect(200);
      const cancelled = (listed.body as Array<{ appointment_id: string; status_reason: string | null; cancellation_reason: string | null }>).find((a) => a.appointment_id === id);
      assert.deepEqual([cancelled?.status_reason, cancelled?.cancellation_reason], ['cancelled_by_doctor', 'Emergency']);
    });
  });

  describe('reads', () => {
    it("patient's /appointments/me has the seeds' patient shape", async () => {
      const res = await t.http.get('/api/v1/appointments/me?timezone_str=Asia/Kolkata').set(patient.auth).expect(200);
      assert.ok(res.body.length >= 1);
      const first = res.body[0];
      // The seeds' fields, with cancellation_reason and consultation_held (a begun consultation cannot be cancelled) added.
      assert.deepEqual(Object.keys(first).sort(), ['appointment_id', 'cancellation_reason', 'consultation_held', 'created_at', 'doctor', 'notes', 'patient', 'rejection_reason', 'slot', 'status', 'status_reason']);
      assert.equal(first.doctor.name, 'Dr. Asha Menon');
      assert.equal(first.doctor.specialty, 'Pediatrics');
      assert.deepEqual(first.patient, { name: 'Ravi Kumar', phone_number: '+91 91234 56789' });
      assert.equal(first.slot.slot_date, indiaDate(2));
      assert.equal(first.slot.start_time, '09:00:00');
      assert.equal(first.slot.end_time, '09:30:00');
    });

    it("doctor's /appointments/me has the doctor shape, in the caller's zone", async () => {
      const res = await t.http.get('/api/v1/appointments/me?timezone_str=UTC').set(doctor.auth).expect(200);
      const first = res.body[0];
      assert.equal(first.patient_name, 'Ravi Kumar');
      assert.equal(first.slot.start_time, '03:30:00', '09:00 in India is 03:30 UTC');
      assert.equal(first.consultation_fee, 500);
      assert.ok(['requested', 'confirmed'].includes(first.status));
    });

    it('sections: upcoming (requested and confirmed, soonest first) and past (declined and cancelled, with their reasons, latest first)', async () => {
      const mine = async (user: TestUser, section: string, limit = '') =>
        (await t.http.get(`/api/v1/appointments/me?section=${section}${limit}`).set(user.auth).expect(200)).body as Array<{
          status: string;
          status_reason: string | null;
          rejection_reason: string | null;
          slot: { start_at: string };
        }>;
      const upcoming = await mine(patient, 'upcoming');
      assert.ok(upcoming.length >= 1);
      assert.ok(upcoming.every((a) => ['requested', 'confirmed'].includes(a.status)));
      assert.deepEqual(upcoming.map((a) => a.slot.start_at), [...upcoming.map((a) => a.slot.start_at)].sort());
      const declined = await mine(otherPatient, 'past');
      assert.ok(declined.some((a) => a.status === 'rejected' && a.rejection_reason === 'Please see a neurologist'), 'a decline keeps its reason');
      const past = await mine(patient, 'past');
      assert.ok(past.some((a) => a.status === 'cancelled' && a.status_reason === 'cancelled_by_patient'));
      assert.deepEqual(past.map((a) => a.slot.start_at), [...past.map((a) => a.slot.start_at)].sort().reverse());
      assert.equal((await mine(patient, 'past', '&limit=1')).length, 1);
      const doctorPast = await mine(doctor, 'past');
      assert.ok(doctorPast.some((a) => a.status === 'rejected'));
      await t.http.get('/api/v1/appointments/me?section=later').set(patient.auth).expect(422);
      await t.http.get('/api/v1/appointments/me?section=past&limit=1000').set(patient.auth).expect(422);
    });

    it("a slot's facts come from the server: doctor, time, fee, and whether the caller can still request it", async () => {
      const facts = (user: TestUser, slotId: number | string) => t.http.get(`/api/v1/slots/${slotId}?timezone_str=Asia/Kolkata`).set(user.auth);
      const open = (await facts(patient, slots[5]!).expect(200)).body;
      assert.equal(open.availability, 'open');
      assert.deepEqual(open.doctor, { doctor_id: doctor.user_id, name: 'Dr. Asha Menon', specialty: 'Pediatrics', qualification: open.doctor.qualification, consultation_fee: 500 });
      assert.equal(open.slot_date, indiaDate(2));
      assert.equal(open.start_time, '11:30:00');
      assert.equal((await facts(patient, slots[0]!).expect(200)).body.availability, 'requested_by_you');
      assert.equal((await facts(otherPatient, slots[0]!).expect(200)).body.availability, 'taken');
      await facts(patient, 999_999_999_999).expect(404);
      await facts(patient, 'abc').expect(422);
      await facts(patient, '-5').expect(422);
    });

    it('an unknown time zone is 422', async () => {
      const res = await t.http.get('/api/v1/appointments/me?timezone_str=Mars/Olympus').set(patient.auth).expect(422);
      assert.deepEqual(res.body.detail[0].loc, ['query', 'timezone_str']);
    });

    it("pending lists the doctor's requests with created_at and the patient's phone", async () => {
      await request(patient, { slot_id: slots[3], notes: 'Allergy' }).expect(201);
      const res = await t.http.get('/api/v1/appointments/pending').set(doctor.auth).set('X-Min-Position', String(await t.app.eventStore.headPosition())).expect(200);
      const mine = res.body.find((p: { notes: string }) => p.notes === 'Allergy');
      assert.ok(mine);
      assert.equal(mine.patient_phone, '+91 91234 56789');
      assert.ok(mine.created_at);
      assert.equal(mine.slot.start_time, '10:30:00');
      await t.http.get('/api/v1/appointments/pending').set(patient.auth).expect(403);
      assert.deepEqual((await t.http.get('/api/v1/appointments/pending').set(otherDoctor.auth).expect(200)).body, []);
    });

    it('history shows every event with actor and time, to participants only', async () => {
      const created = await request(otherPatient, { slot_id: slots[4], notes: 'Ear pain' }).expect(201);
      const id = created.body.appointment_id;
      const approved = await t.http.post(`/api/v1/appointments/${id}/approve`).set(doctor.auth).expect(200);
      const res = await t.http
        .get(`/api/v1/appointments/${id}/history`)
        .set(otherPatient.auth)
        .set('X-Min-Position', String(approved.headers['x-event-position']))
        .expect(200);
      assert.deepEqual(res.body.events.map((e: { type: string }) => e.type), ['SlotReserved', 'AppointmentRequested', 'AppointmentApproved']);
      const approval = res.body.events[2];
      assert.equal(approval.actor.user_id, doctor.user_id);
      assert.equal(approval.actor.role, 'doctor');
      assert.equal(approval.actor.name, 'Dr. Asha Menon');
      assert.ok(Date.parse(approval.occurred_at) > 0);
      await t.http.get(`/api/v1/appointments/${id}/history`).set(doctor.auth).expect(200);
      await t.http.get(`/api/v1/appointments/${id}/history`).set(patient.auth).expect(404);
      await t.http.get(`/api/v1/appointments/${id}/history`).set(otherDoctor.auth).expect(404);
    });
  });
});
