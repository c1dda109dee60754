import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { API_TEXTS, DOCTOR_CITY_MAX_LENGTH } from '@telemed/contracts';
import { indiaDate, slotInput, startTestApp, type TestApp, type TestUser } from '../support/test-app';

describe('doctors, slots and schedule API', () => {
  let t: TestApp;
  let doctor: TestUser;
  let patient: TestUser;

  before(async () => {
    t = await startTestApp();
    doctor = await t.createUser('doctor', { name: 'Dr. Farah Khan', doctor: { specialty: 'ENT', qualification: 'MBBS, MS (ENT)', registration_number: 'MMC-77', medical_council: 'Maharashtra Medical Council' } });
    patient = await t.createUser('patient');
  });
  after(() => t.close());

  const setAvailability = (user: TestUser, body: unknown) =>
    t.http.post('/api/v1/schedule-v2/set_availability_v2/').set(user.auth).send(body as object);

  describe('set_availability_v2 and get_appointments_v2', () => {
    const day = indiaDate(3);

    it('opens the submitted slots and reports the counts', async () => {
      const res = await setAvailability(doctor, {
        slots: ['10:00', '10:30', '11:00'].map((time) => slotInput(day, time)),
        timezone: 'Asia/Kolkata',
      }).expect(200);
      assert.deepEqual(res.body, { status: 'success', opened: 3, withdrawn: 0, unchanged: 0 });
      assert.ok(Number(res.headers['x-event-position']) > 0);
    });

    it('available-slots lists them sorted by start with stable integer ids', async () => {
      const res = await t.http.get(`/api/v1/doctors/${doctor.user_id}/available-slots`).set(patient.auth).expect(200);
      const slots = res.body.slots as Array<{ slot_id: number; slot_date: string; start_time: string; is_available: boolean }>;
      assert.deepEqual(slots.map((s) => s.start_time), ['10:00:00', '10:30:00', '11:00:00']);
      assert.ok(slots.every((s) => Number.isInteger(s.slot_id) && s.is_available && s.slot_date === day));
    });

    it('saving again replaces the future availability; booked slots stay booked', async () => {
      const before = await t.http.get(`/api/v1/doctors/${doctor.user_id}/available-slots`).set(patient.auth).expect(200);
      const [ten, tenThirty] = before.body.slots as Array<{ slot_id: number }>;
      await t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: ten!.slot_id, notes: 'Sinus' }).expect(201);
      const res = await setAvailability(doctor, { slots: [slotInput(day, '10:30'), slotInput(day, '12:00')], timezone: 'Asia/Kolkata' }).expect(200);
      assert.deepEqual(res.body, { status: 'success', opened: 1, withdrawn: 1, unchanged: 2 });
      const schedule = await t.http
        .get('/api/v1/schedule-v2/get_appointments_v2/?timezone_str=Asia/Kolkata')
        .set(doctor.auth)
        .set('X-Min-Position', String(res.headers['x-event-position']))
        .expect(200);
      assert.deepEqual(
        schedule.body.map((s: { start_time: string; status: string }) => `${s.start_time} ${s.status}`),
        ['10:00:00 booked', '10:30:00 available', '12:00:00 available'],
      );
      const again = await t.http.get(`/api/v1/doctors/${doctor.user_id}/available-slots`).set(patient.auth).expect(200);
      assert.equal(again.body.slots[0].slot_id, tenThirty!.slot_id, 'the same slot keeps its id across saves');
      const eleven = (before.body.slots as Array<{ slot_id: number }>)[2]!;
      const withdrawn = await t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: eleven.slot_id, notes: 'x' }).expect(409);
      assert.equal(withdrawn.body.detail, API_TEXTS.slotNotAvailable);
    });

    it('re-saving the same set changes nothing', async () => {
      const head = await t.app.eventStore.headPosition();
      const res = await setAvailability(doctor, { slots: [slotInput(day, '10:30'), slotInput(day, '12:00')], timezone: 'Asia/Kolkata' }).expect(200);
      assert.equal(res.body.opened + res.body.withdrawn, 0);
      assert.equal(await t.app.eventStore.headPosition(), head);
    });

    it('a past slot is 409', async () => {
      const res = await setAvailability(doctor, { slots: [slotInput(indiaDate(-1), '10:00')] }).expect(409);
      assert.match(res.body.detail, /past/);
    });

    it('slots outside 06:00-22:00, off the half hour or not 30 minutes are 422 with their index', async () => {
      const res = await setAvailability(doctor, {
        slots: [slotInput(day, '13:00'), slotInput(day, '05:30'), { slot_date: day, start_time: '13:15:00', end_time: '13:45:00' }, { slot_date: day, start_time: '14:00:00', end_time: '15:00:00' }],
      }).expect(422);
      assert.deepEqual(res.body.detail.map((d: { loc: unknown[] }) => d.loc), [
        ['body', 'slots', 1, 'start_time'],
        ['body', 'slots', 2, 'start_time'],
        ['body', 'slots', 3, 'end_time'],
      ]);
    });

    it('bad shapes and an unknown zone are 422; a patient is 403', async () => {
      await setAvailability(doctor, { slots: [{ slot_date: '2030-1-1', start_time: '9:00', end_time: '9:30' }] }).expect(422);
      await setAvailability(doctor, { slots: 'all' }).expect(422);
      await setAvailability(doctor, { slots: [], timezone: 'Nowhere/City' }).expect(422);
      await setAvailability(patient, { slots: [] }).expect(403);
      await t.http.get('/api/v1/schedule-v2/get_appointments_v2/').set(patient.auth).expect(403);
    });

    it("renders slots in the caller's time zone", async () => {
      const res = await t.http.get(`/api/v1/doctors/${doctor.user_id}/available-slots?timezone_str=Europe/London`).set(patient.auth).expect(200);
      assert.equal(res.body.slots[0].start_time, '05:00:00', '10:30 in India is 05:00 in London in winter');
    });
  });

  describe('doctors', () => {
    it('lists doctors with the seeds fields, paged by skip and limit', async () => {
      await t.createUser('doctor', { name: 'Dr. Zoya Ali' });
      const all = await t.http.get('/api/v1/doctors/?skip=0&limit=100').set(patient.auth).expect(200);
      assert.equal(all.body.length, 2);
      const farah = all.body.find((d: { name: string }) => d.name === 'Dr. Farah Khan');
      assert.deepEqual(farah, {
        doctor_id: doctor.user_id,
        name: 'Dr. Farah Khan',
        specialty: 'ENT',
        qualification: 'MBBS, MS (ENT)',
        consultation_fee: 100,
        appointment_duration_minutes: 30,
        phone_number: farah.phone_number,
        registration_number: 'MMC-77',
        medical_council: 'Maharashtra Medical Council',
        city: null,
        accepting_bookings: true,
      });
      const page = await t.http.get('/api/v1/doctors/?skip=1&limit=1').set(patient.auth).expect(200);
      assert.equal(page.body.length, 1);
      assert.equal(page.body[0].name, 'Dr. Zoya Ali');
      await t.http.get('/api/v1/doctors/?limit=0').set(patient.auth).expect(422);
      await t.http.get('/api/v1/doctors/?skip=-1').set(patient.auth).expect(422);
      await t.http.get('/api/v1/doctors/').expect(401);
    });

    it('an unknown doctor has 404 slots', async () => {
      const res = await t.http.get('/api/v1/doctors/nobody/available-slots').set(patient.auth).expect(404);
      assert.equal(res.body.detail, API_TEXTS.doctorNotFound);
    });

    it("subscribing adds the doctor to the patient's /doctors/me with upcoming slots", async () => {
      let mine = await t.http.get('/api/v1/doctors/me?timezone_str=Asia/Kolkata').set(patient.auth).expect(200);
      assert.deepEqual(mine.body, []);
      const res = await t.http.post('/api/v1/users/subscribe').set(patient.auth).send({ doctor_id: doctor.user_id }).expect(200);
      assert.deepEqual(res.body, { status: 'success', doctor_id: doctor.user_id });
      mine = await t.http.get('/api/v1/doctors/me?timezone_str=Asia/Kolkata').set(patient.auth).set('X-Min-Position', String(res.headers['x-event-position'])).expect(200);
      assert.equal(mine.body.length, 1);
      assert.equal(mine.body[0].name, 'Dr. Farah Khan');
      assert.deepEqual(mine.body[0].availableSlots.map((s: { start_time: string }) => s.start_time), ['10:30:00', '12:00:00']);
      await t.http.post('/api/v1/users/subscribe').set(patient.auth).send({ doctor_id: doctor.user_id }).expect(200);
      await t.http.post('/api/v1/users/subscribe').set(patient.auth).send({ doctor_id: 'nobody' }).expect(404);
      await t.http.post('/api/v1/users/subscribe').set(patient.auth).send({ doctor_id: patient.user_id }).expect(404);
      await t.http.post('/api/v1/users/subscribe').set(doctor.auth).send({ doctor_id: doctor.user_id }).expect(403);
    });

    it('a doctor reading /doctors/me gets their own profile', async () => {
      const res = await t.http.get('/api/v1/doctors/me').set(doctor.auth).expect(200);
      assert.equal(res.body.doctor_id, doctor.user_id);
      assert.ok(Array.isArray(res.body.availableSlots));
    });
  });

  describe('users/me', () => {
    it('reads and updates my profile; doctors also their practitioner fields', async () => {
      const me = await t.http.get('/api/v1/users/me').set(doctor.auth).expect(200);
      assert.equal(me.body.account_type, 'doctor');
      assert.equal(me.body.doctor.specialty, 'ENT');
      const res = await t.http
        .put('/api/v1/users/me')
        .set(doctor.auth)
        .send({ name: 'Dr. Farah K. Khan', consultation_fee: 650, registration_number: 'MMC-78' })
        .expect(200);
      const after = await t.http.get('/api/v1/users/me').set(doctor.auth).set('X-Min-Position', String(res.headers['x-event-position'])).expect(200);
      assert.equal(after.body.name, 'Dr. Farah K. Khan');
      assert.equal(after.body.doctor.consultation_fee, 650);
      assert.equal(after.body.doctor.registration_number, 'MMC-78');
      const listed = await t.http.get('/api/v1/doctors/').set(patient.auth).expect(200);
      assert.ok(listed.body.some((d: { name: string; consultation_fee: number }) => d.name === 'Dr. Farah K. Khan' && d.consultation_fee === 650));
    });

    it("a doctor's city: set (trimmed), shown in me, the list and the public profile; cleared with null; a bad city is 422", async () => {
      const res = await t.http.put('/api/v1/users/me').set(doctor.auth).send({ city: '  Pune ' }).expect(200);
      const position = String(res.headers['x-event-position']);
      const me = await t.http.get('/api/v1/users/me').set(doctor.auth).set('X-Min-Position', position).expect(200);
      assert.equal(me.body.doctor.city, 'Pune');
      const listed = await t.http.get('/api/v1/doctors/').set(patient.auth).set('X-Min-Position', position).expect(200);
      assert.equal(listed.body.find((d: { doctor_id: string }) => d.doctor_id === doctor.user_id).city, 'Pune');
      const open = await t.http.get(`/api/v1/public/doctors/${doctor.user_id}`).set('X-Min-Position', position).expect(200);
      assert.equal(open.body.city, 'Pune');

      for (const city of ['', '   ', 'Pune\u0000', 'Pu\u202Ene', 'x'.repeat(DOCTOR_CITY_MAX_LENGTH + 1), 42]) {
        const bad = await t.http.put('/api/v1/users/me').set(doctor.auth).send({ city }).expect(422);
        assert.ok(bad.body.code, JSON.stringify(bad.body));
        assert.deepEqual(bad.body.detail[0].loc, ['body', 'city'], JSON.stringify(bad.body));
      }
      await t.http.put('/api/v1/users/me').set(doctor.auth).send({ city: 'x'.repeat(DOCTOR_CITY_MAX_LENGTH) }).expect(200);
      await t.http.put('/api/v1/users/me').set(patient.auth).send({ city: 'Pune' }).expect(422);

      const cleared = await t.http.put('/api/v1/users/me').set(doctor.auth).send({ city: null }).expect(200);
      const after = await t.http.get('/api/v1/users/me').set(doctor.auth).set('X-Min-Position', String(cleared.headers['x-event-position'])).expect(200);
      assert.equal(after.body.doctor.city, null);
    });

    it('a patient cannot set doctor fields; bad values are 422', async () => {
      await t.http.put('/api/v1/users/me').set(patient.auth).send({ specialty: 'ENT' }).expect(422);
      await t.http.put('/api/v1/users/me').set(patient.auth).send({ consultation_fee: -5 }).expect(422);
      await t.http.put('/api/v1/users/me').set(patient.auth).send({ phone_number: 'call me' }).expect(422);
      await t.http.put('/api/v1/users/me').set(patient.auth).send({ account_type: 'admin' }).expect(422);
      const me = await t.http.get('/api/v1/users/me').set(patient.auth).expect(200);
      assert.equal(me.body.account_type, 'patient');
      assert.equal(me.body.doctor, null);
    });
  });
});
