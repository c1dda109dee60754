import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { API_TEXTS, DOCTOR_CITY_MAX_LENGTH, streams } from '@telemed/contracts';
import { indiaDate, slotInput, startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { apiSpec, type ApiSpec } from '../support/api-spec';

const farahProfile = { name: 'Dr. Farah Khan', doctor: { specialty: 'ENT', qualification: 'MBBS, MS (ENT)', registration_number: 'MMC-77', medical_council: 'Maharashtra Medical Council', consultation_fee: 100 } };

describe('doctors, slots and schedule API', () => {
  let t: TestApp;
  let spec: ApiSpec;

  before(async () => {
    t = await startTestApp();
    spec = apiSpec(t);
  });
  after(() => t.close());

  // The people of a case, new for each case.
  const farah = () => spec.given.doctor(farahProfile);
  const patient = () => spec.given.patient();
  const setAvailability = (user: TestUser, body: unknown) => spec.when((http) => http.post('/api/v1/schedule-v2/set_availability_v2/').set(user.auth).send(body as object));
  const availableSlots = async (doctor: TestUser, reader: TestUser, query = '') =>
    (await spec.when((http) => http.get(`/api/v1/doctors/${doctor.user_id}/available-slots${query}`).set(reader.auth))).expectStatus(200).expectNoEvents();

  describe('set_availability_v2 and get_appointments_v2', () => {
    const day = indiaDate(3);
    /** Given the doctor's slots at these times on `day`, opened by the doctor through the API. */
    const givenSlots = async (doctor: TestUser, times: string[]) =>
      (await setAvailability(doctor, { slots: times.map((time) => slotInput(day, time)), timezone: 'Asia/Kolkata' })).expectStatus(200);

    it('opens the submitted slots and reports the counts', async () => {
      const doctor = await farah();
      const res = (await setAvailability(doctor, { slots: ['10:00', '10:30', '11:00'].map((time) => slotInput(day, time)), timezone: 'Asia/Kolkata' }))
        .expectStatus(200)
        .expectBody({ status: 'success', opened: 3, withdrawn: 0, unchanged: 0 })
        // The month's availability (10:00 in India is the same day in UTC), then each slot opened on its own stream.
        .expectEvents([{ stream: streams.scheduleMonth(doctor.user_id, day.slice(0, 7)), type: 'AvailabilitySet' }, { type: 'SlotOpened' }, { type: 'SlotOpened' }, { type: 'SlotOpened' }]);
      assert.ok(Number(res.headers['x-event-position']) > 0);
    });

    it('available-slots lists them sorted by start with stable integer ids', async () => {
      const [doctor, reader] = [await farah(), await patient()];
      await givenSlots(doctor, ['10:00', '10:30', '11:00']);
      const res = await availableSlots(doctor, reader);
      const slots = res.body.slots as Array<{ slot_id: number; slot_date: string; start_time: string; is_available: boolean }>;
      assert.deepEqual(slots.map((s) => s.start_time), ['10:00:00', '10:30:00', '11:00:00']);
      assert.ok(slots.every((s) => Number.isInteger(s.slot_id) && s.is_available && s.slot_date === day));
    });

    it('saving again replaces the future availability; booked slots stay booked', async () => {
      const [doctor, reader] = [await farah(), await patient()];
      await givenSlots(doctor, ['10:00', '10:30', '11:00']);
      const before = await availableSlots(doctor, reader);
      const [ten, tenThirty] = before.body.slots as Array<{ slot_id: number }>;
      (await spec.when((http) => http.post('/api/v1/appointments').set(reader.auth).send({ slot_id: ten!.slot_id, notes: 'Sinus' }))).expectStatus(201);
      const res = (await setAvailability(doctor, { slots: [slotInput(day, '10:30'), slotInput(day, '12:00')], timezone: 'Asia/Kolkata' }))
        .expectStatus(200)
        .expectBody({ status: 'success', opened: 1, withdrawn: 1, unchanged: 2 });
      const schedule = (await spec.when((http) => http.get('/api/v1/schedule-v2/get_appointments_v2/?timezone_str=Asia/Kolkata').set(doctor.auth).set('X-Min-Position', String(res.headers['x-event-position'])))).expectStatus(200);
      assert.deepEqual(
        schedule.body.map((s: { start_time: string; status: string }) => `${s.start_time} ${s.status}`),
        ['10:00:00 booked', '10:30:00 available', '12:00:00 available'],
      );
      const again = await availableSlots(doctor, reader);
      assert.equal(again.body.slots[0].slot_id, tenThirty!.slot_id, 'the same slot keeps its id across saves');
      const eleven = (before.body.slots as Array<{ slot_id: number }>)[2]!;
      const withdrawn = (await spec.when((http) => http.post('/api/v1/appointments').set(reader.auth).send({ slot_id: eleven.slot_id, notes: 'x' }))).expectStatus(409).expectNoEvents();
      assert.equal(withdrawn.body.detail, API_TEXTS.slotNotAvailable);
    });

    it('re-saving the same set changes nothing', async () => {
      const doctor = await farah();
      await givenSlots(doctor, ['10:30', '12:00']);
      const res = (await setAvailability(doctor, { slots: [slotInput(day, '10:30'), slotInput(day, '12:00')], timezone: 'Asia/Kolkata' })).expectStatus(200).expectNoEvents();
      assert.equal(res.body.opened + res.body.withdrawn, 0);
    });

    it('a past slot is 409', async () => {
      const res = (await setAvailability(await farah(), { slots: [slotInput(indiaDate(-1), '10:00')] })).expectStatus(409).expectNoEvents();
      assert.match(res.body.detail, /past/);
    });

    it('slots outside 06:00-22:00, off the half hour or not 30 minutes are 422 with their index', async () => {
      const res = (
        await setAvailability(await farah(), {
          slots: [slotInput(day, '13:00'), slotInput(day, '05:30'), { slot_date: day, start_time: '13:15:00', end_time: '13:45:00' }, { slot_date: day, start_time: '14:00:00', end_time: '15:00:00' }],
        })
      )
        .expectStatus(422)
        .expectNoEvents();
      assert.deepEqual(res.body.detail.map((d: { loc: unknown[] }) => d.loc), [
        ['body', 'slots', 1, 'start_time'],
        ['body', 'slots', 2, 'start_time'],
        ['body', 'slots', 3, 'end_time'],
      ]);
    });

    it('bad shapes and an unknown zone are 422; a patient is 403', async () => {
      const [doctor, reader] = [await farah(), await patient()];
      (await setAvailability(doctor, { slots: [{ slot_date: '2030-1-1', start_time: '9:00', end_time: '9:30' }] })).expectStatus(422).expectNoEvents();
      (await setAvailability(doctor, { slots: 'all' })).expectStatus(422).expectNoEvents();
      (await setAvailability(doctor, { slots: [], timezone: 'Nowhere/City' })).expectStatus(422).expectNoEvents();
      (await setAvailability(reader, { slots: [] })).expectStatus(403).expectNoEvents();
      (await spec.when((http) => http.get('/api/v1/schedule-v2/get_appointments_v2/').set(reader.auth))).expectStatus(403).expectNoEvents();
    });

    it("renders slots in the caller's time zone", async () => {
      const [doctor, reader] = [await farah(), await patient()];
      await givenSlots(doctor, ['10:30', '12:00']);
      const res = await availableSlots(doctor, reader, '?timezone_str=Europe/London');
      assert.equal(res.body.slots[0].start_time, '05:00:00', '10:30 in India is 05:00 in London in winter');
    });
  });

  describe('doctors', () => {
    it('an unknown doctor has 404 slots', async () => {
      const reader = await patient();
      const res = (await spec.when((http) => http.get('/api/v1/doctors/nobody/available-slots').set(reader.auth))).expectStatus(404).expectNoEvents();
      assert.equal(res.body.detail, API_TEXTS.doctorNotFound);
    });

    it("subscribing adds the doctor to the patient's /doctors/me with upcoming slots", async () => {
      const [doctor, reader] = [await farah(), await patient()];
      await spec.given.slots(doctor, [{ days: 3, time: '10:30' }, { days: 3, time: '12:00' }]);
      const myDoctors = () => spec.when((http) => http.get('/api/v1/doctors/me?timezone_str=Asia/Kolkata').set(reader.auth));
      (await myDoctors()).expectStatus(200).expectBody([]);
      const subscribe = (user: TestUser, doctor_id: string) => spec.when((http) => http.post('/api/v1/users/subscribe').set(user.auth).send({ doctor_id }));
      (await subscribe(reader, doctor.user_id)).expectStatus(200).expectBody({ status: 'success', doctor_id: doctor.user_id });
      const mine = (await myDoctors()).expectStatus(200);
      assert.equal(mine.body.length, 1);
      assert.equal(mine.body[0].name, 'Dr. Farah Khan');
      assert.deepEqual(mine.body[0].availableSlots.map((s: { start_time: string }) => s.start_time), ['10:30:00', '12:00:00']);
      (await subscribe(reader, doctor.user_id)).expectStatus(200);
      (await subscribe(reader, 'nobody')).expectStatus(404).expectNoEvents();
      (await subscribe(reader, reader.user_id)).expectStatus(404).expectNoEvents();
      (await subscribe(doctor, doctor.user_id)).expectStatus(403).expectNoEvents();
    });

    it('a doctor reading /doctors/me gets their own profile', async () => {
      const doctor = await farah();
      const res = (await spec.when((http) => http.get('/api/v1/doctors/me').set(doctor.auth))).expectStatus(200).expectNoEvents();
      assert.equal(res.body.doctor_id, doctor.user_id);
      assert.ok(Array.isArray(res.body.availableSlots));
    });
  });

  describe('users/me', () => {
    const putMe = (user: TestUser, body: object) => spec.when((http) => http.put('/api/v1/users/me').set(user.auth).send(body));
    const me = async (user: TestUser) => (await spec.when((http) => http.get('/api/v1/users/me').set(user.auth))).expectStatus(200).expectNoEvents();

    it('reads and updates my profile; doctors also their practitioner fields', async () => {
      const [doctor, reader] = [await farah(), await patient()];
      const mine = await me(doctor);
      assert.equal(mine.body.account_type, 'doctor');
      assert.equal(mine.body.doctor.specialty, 'ENT');
      (await putMe(doctor, { name: 'Dr. Farah K. Khan', consultation_fee: 650, registration_number: 'MMC-78' })).expectStatus(200);
      const after = await me(doctor);
      assert.equal(after.body.name, 'Dr. Farah K. Khan');
      assert.equal(after.body.doctor.consultation_fee, 650);
      assert.equal(after.body.doctor.registration_number, 'MMC-78');
      const listed = await spec.read((http) => http.get('/api/v1/doctors/').set(reader.auth).expect(200));
      assert.ok(listed.body.some((d: { name: string; consultation_fee: number }) => d.name === 'Dr. Farah K. Khan' && d.consultation_fee === 650));
    });

    it("a doctor's city: set (trimmed), shown in me, the list and the public profile; cleared with null; a bad city is 422", async () => {
      const [doctor, reader] = [await farah(), await patient()];
      (await putMe(doctor, { city: '  Pune ' })).expectStatus(200);
      assert.equal((await me(doctor)).body.doctor.city, 'Pune');
      const listed = await spec.read((http) => http.get('/api/v1/doctors/').set(reader.auth).expect(200));
      assert.equal(listed.body.find((d: { doctor_id: string }) => d.doctor_id === doctor.user_id).city, 'Pune');
      const open = await spec.read((http) => http.get(`/api/v1/public/doctors/${doctor.user_id}`).expect(200));
      assert.equal(open.body.city, 'Pune');

      for (const city of ['', '   ', 'Pune\u0000', 'Pu\u202Ene', 'x'.repeat(DOCTOR_CITY_MAX_LENGTH + 1), 42]) {
        const bad = (await putMe(doctor, { city })).expectStatus(422).expectNoEvents();
        assert.ok(bad.body.code, JSON.stringify(bad.body));
        assert.deepEqual(bad.body.detail[0].loc, ['body', 'city'], JSON.stringify(bad.body));
      }
      (await putMe(doctor, { city: 'x'.repeat(DOCTOR_CITY_MAX_LENGTH) })).expectStatus(200);
      (await putMe(reader, { city: 'Pune' })).expectStatus(422).expectNoEvents();

      (await putMe(doctor, { city: null })).expectStatus(200);
      assert.equal((await me(doctor)).body.doctor.city, null);
    });

    it('the language chosen is kept on the account (issue 33): recorded once, read back in me; one the product does not speak is 422', async () => {
      const reader = await patient();
      assert.equal((await me(reader)).body.language, null, 'none until chosen');
      (await putMe(reader, { language: 'hi' })).expectStatus(200).expectEvents([{ stream: streams.user(reader.user_id), type: 'UserLanguageChosen', data: { language: 'hi' } }]);
      assert.equal((await me(reader)).body.language, 'hi');
      (await putMe(reader, { language: 'hi' })).expectStatus(200).expectNoEvents();
      for (const language of ['fr', 'HI', '', 'hi-IN', 7, null]) (await putMe(reader, { language })).expectStatus(422).expectNoEvents();
      const doctor = await farah();
      (await putMe(doctor, { language: 'ta', consultation_fee: 700 })).expectStatus(200).expectEvents([
        { stream: streams.user(doctor.user_id), type: 'UserLanguageChosen', data: { language: 'ta' } },
        { stream: streams.user(doctor.user_id), type: 'DoctorProfileUpdated' },
      ]);
      assert.equal((await me(doctor)).body.language, 'ta');
      assert.equal((await me(reader)).body.language, 'hi', "one person's choice is theirs alone");
    });

    it("a doctor's languages (issue 33): each once, kept in the product's order, shown in me, the list and the public page; bad ones are 422", async () => {
      const [doctor, reader] = [await farah(), await patient()];
      assert.deepEqual((await me(doctor)).body.doctor.languages, [], 'none until given');
      (await putMe(doctor, { languages: ['ta', 'en', 'hi'] })).expectStatus(200).expectEvents([
        { stream: streams.user(doctor.user_id), type: 'DoctorProfileUpdated', data: { doctor_id: doctor.user_id, languages: ['en', 'hi', 'ta'] } },
      ]);
      assert.deepEqual((await me(doctor)).body.doctor.languages, ['en', 'hi', 'ta']);
      (await putMe(doctor, { languages: ['hi', 'ta', 'en'] })).expectStatus(200).expectNoEvents();
      const listed = await spec.read((http) => http.get('/api/v1/doctors/').set(reader.auth).expect(200));
      assert.deepEqual(listed.body.find((d: { doctor_id: string }) => d.doctor_id === doctor.user_id).languages, ['en', 'hi', 'ta']);
      const open = await spec.read((http) => http.get(`/api/v1/public/doctors/${doctor.user_id}`).expect(200));
      assert.deepEqual(open.body.languages, ['en', 'hi', 'ta']);
      for (const languages of [[], ['hi', 'hi'], ['fr'], ['HI'], 'hi', null, [7]]) {
        const bad = (await putMe(doctor, { languages })).expectStatus(422).expectNoEvents();
        assert.equal(bad.body.code, 'validation_failed', JSON.stringify(bad.body));
      }
      (await putMe(reader, { languages: ['hi'] })).expectStatus(422).expectNoEvents();
    });

    it('a patient cannot set doctor fields; bad values are 422', async () => {
      const reader = await patient();
      for (const body of [{ specialty: 'ENT' }, { consultation_fee: -5 }, { phone_number: 'call me' }, { account_type: 'admin' }]) {
        (await putMe(reader, body)).expectStatus(422).expectNoEvents();
      }
      const mine = await me(reader);
      assert.equal(mine.body.account_type, 'patient');
      assert.equal(mine.body.doctor, null);
    });
  });
});

// The list of every doctor: an app of its own, so the count is of this case's doctors alone.
describe('doctors, slots and schedule API: the list of doctors', () => {
  let t: TestApp;
  let spec: ApiSpec;

  before(async () => {
    t = await startTestApp();
    spec = apiSpec(t);
  });
  after(() => t.close());

  it('lists doctors with the seeds fields, paged by skip and limit', async () => {
    const doctor = await spec.given.doctor(farahProfile);
    const reader = await spec.given.patient();
    await spec.given.doctor({ name: 'Dr. Zoya Ali' });
    const list = (query: string, user: TestUser | null = reader) =>
      spec.when((http) => {
        const req = http.get(`/api/v1/doctors/${query}`);
        return user ? req.set(user.auth) : req;
      });
    const all = (await list('?skip=0&limit=100')).expectStatus(200).expectNoEvents();
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
      languages: [],
      accepting_bookings: true,
    });
    const page = (await list('?skip=1&limit=1')).expectStatus(200);
    assert.equal(page.body.length, 1);
    assert.equal(page.body[0].name, 'Dr. Zoya Ali');
    (await list('?limit=0')).expectStatus(422).expectNoEvents();

    // Discovery by language: only the doctors who consult in it, paged the same way.
    (await spec.when((http) => http.put('/api/v1/users/me').set(doctor.auth).send({ languages: ['hi', 'mr'] }))).expectStatus(200);
    const inHindi = (await list('?language=hi')).expectStatus(200).expectNoEvents();
    assert.deepEqual(inHindi.body.map((d: { name: string }) => d.name), ['Dr. Farah Khan']);
    assert.deepEqual((await list('?language=ta')).expectStatus(200).body, []);
    for (const language of ['fr', 'HI', 'hi-IN']) (await list(`?language=${language}`)).expectStatus(422).expectNoEvents();
    (await list('?skip=-1')).expectStatus(422).expectNoEvents();
    (await list('', null)).expectStatus(401).expectNoEvents();
  });
});
