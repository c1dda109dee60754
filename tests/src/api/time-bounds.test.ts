import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { indiaDate, startTestApp, type TestApp, type TestUser } from '../support/test-app';

/**
 * Time bounds are compared as times, not as text. Starts are stored as `2026-12-01T05:00:00Z`; a bound was compared as
 * written or as `toISOString()` gives it (`…05:00:00.000Z`), and `'…05:00:00.000Z' < '…05:00:00Z'`: an inclusive bound
 * equal to a start left it out, and a slot starting at the clock's very instant (or within its second) was still offered.
 */
for (const readStoreKind of ['memory', 'sqlite']) describe(`time bounds compare as times, whatever their precision (${readStoreKind} read store)`, () => {
  let t: TestApp;
  let now = new Date();
  let platformAdmin: TestUser;
  let institutionAdmin: TestUser;
  let doctor: TestUser;
  let patient: TestUser;
  const date = indiaDate(3);
  /** Booked at 10:30 and 11:00 India (05:00 and 05:30 UTC); open at 11:30 and 12:00 (06:00 and 06:30 UTC). */
  let first: string;
  let second: string;
  let openAt0600: number;
  let openAt0630: number;

  before(async () => {
    t = await startTestApp({ clock: () => now, env: { READ_STORE: readStoreKind, SWEEP_INTERVAL_MS: '3600000', CONSULTATION_SWEEP_INTERVAL_MS: '3600000' } });
    platformAdmin = await t.createUser('admin');
    const staff = [
      { name: 'Admin Bounds', email: 'admin@bounds.in', phone: '+91 90000 20000', account_type: 'ADMIN' },
      { name: 'Doctor Bounds', email: 'doctor@bounds.in', phone: '+91 90000 20001', account_type: 'DOCTOR' },
    ];
    await t.http.post('/api/v1/institutions/').set(platformAdmin.auth).send({ name: 'Clinic Bounds', slug: 'bounds', address: 'Somewhere', phone: '+91 80 1234 5678', email: 'bounds@clinic.in', staff }).expect(201);
    await t.settle();
    institutionAdmin = await t.signedIn('admin@bounds.in', 'patient');
    doctor = await t.signedIn('doctor@bounds.in', 'doctor');
    patient = await t.createUser('patient');
    const slots = await t.openSlots(doctor, ['10:30', '11:00', '11:30', '12:00'].map((time) => ({ date, time })));
    assert.equal(slots.length, 4, 'every slot opened');
    [openAt0600, openAt0630] = [slots[2]!, slots[3]!];
    first = (await t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: slots[0], notes: 'Fever' }).expect(201)).body.appointment_id as string;
    second = (await t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: slots[1], notes: 'Cough' }).expect(201)).body.appointment_id as string;
    await t.http.post(`/api/v1/appointments/${first}/approve`).set(doctor.auth).expect(200);
    await t.settle();
  });
  after(() => t.close());

  /** The console's appointments with these start bounds: the ids, in start order. */
  async function consoleIds(user: TestUser, bounds: Record<string, string>): Promise<string[]> {
    const filter = { doctor_id: doctor.user_id, ...bounds };
    const res = await t.http.get('/api/v1/admin/appointments').query({ filter: JSON.stringify(filter), sort: '["start","ASC"]' }).set(user.auth).expect(200);
    return (res.body as Array<{ id: string }>).map((a) => a.id);
  }

  for (const who of ['a platform admin (all appointments)', "an institution's admin (its appointments)"]) {
    const user = () => (who.startsWith('a platform') ? platformAdmin : institutionAdmin);

    it(`console filters for ${who}: a bound at a start's exact instant includes it when inclusive and excludes it when exclusive`, async () => {
      for (const bound of [`${date}T05:00:00Z`, `${date}T05:00:00.000Z`, `${date}T10:30:00.000+05:30`, `${date}T10:30:00+05:30`]) {
        assert.deepEqual(await consoleIds(user(), { start_gte: bound, start_lte: bound }), [first], `start_gte = start_lte = ${bound} is the 05:00 appointment`);
        assert.deepEqual(await consoleIds(user(), { start_lte: bound }), [first], `start_lte ${bound} includes 05:00`);
        assert.deepEqual(await consoleIds(user(), { start_gte: bound }), [first, second], `start_gte ${bound} includes 05:00`);
        assert.deepEqual(await consoleIds(user(), { start_lt: bound }), [], `start_lt ${bound} excludes 05:00`);
        assert.deepEqual(await consoleIds(user(), { start_gt: bound }), [second], `start_gt ${bound} excludes 05:00`);
      }
    });

    it(`console filters for ${who}: a bound within a start's second compares as the time it is`, async () => {
      const bound = `${date}T05:00:00.500Z`;
      assert.deepEqual(await consoleIds(user(), { start_lte: bound }), [first], '05:00 is before 05:00:00.5');
      assert.deepEqual(await consoleIds(user(), { start_lt: bound }), [first], '05:00 is before 05:00:00.5 (exclusive)');
      assert.deepEqual(await consoleIds(user(), { start_gte: bound }), [second], '05:00 is not at or after 05:00:00.5');
      assert.deepEqual(await consoleIds(user(), { start_gt: bound }), [second], '05:00 is not after 05:00:00.5');
      assert.deepEqual(await consoleIds(user(), { start_gte: `${date}T04:59:59.999Z`, start_lte: `${date}T05:29:59.999Z` }), [first], 'a window around 05:00 ending just before 05:30');
    });
  }

  /** The slot ids a patient is offered now: every upcoming one, and a window of days from the slots' date. */
  async function offered(): Promise<{ upcoming: number[]; window: number[]; publicPage: number[] }> {
    const ids = (body: unknown) => (body as { slots: Array<{ slot_id: number }> }).slots.map((s) => s.slot_id);
    const upcoming = await t.http.get(`/api/v1/doctors/${doctor.user_id}/available-slots`).set(patient.auth).expect(200);
    const window = await t.http.get(`/api/v1/doctors/${doctor.user_id}/available-slots`).query({ from: date, days: 1 }).set(patient.auth).expect(200);
    const publicPage = await t.http.get(`/api/v1/public/doctors/${doctor.user_id}`).query({ days: 1 }).expect(200);
    return { upcoming: ids(upcoming.body), window: ids(window.body), publicPage: ids(publicPage.body) };
  }

  it("a slot starting at the clock's instant, or earlier within its second, has started: no longer offered, and shown as past", async () => {
    try {
      now = new Date(`${date}T05:59:59.999Z`);
      const justBefore = await offered();
      for (const [list, ids] of Object.entries(justBefore)) assert.deepEqual(ids, [openAt0600, openAt0630], `a millisecond before 06:00 the 06:00 slot is offered (${list})`);
      assert.equal((await t.http.get(`/api/v1/slots/${openAt0600}`).set(patient.auth).expect(200)).body.availability, 'open', 'a millisecond before, it is open');
      for (const at of [`${date}T06:00:00.000Z`, `${date}T06:00:00.400Z`]) {
        now = new Date(at);
        for (const [list, ids] of Object.entries(await offered())) assert.deepEqual(ids, [openAt0630], `at ${at} only the 06:30 slot is offered (${list})`);
        assert.equal((await t.http.get(`/api/v1/slots/${openAt0600}`).set(patient.auth).expect(200)).body.availability, 'past', `at ${at} the 06:00 slot is past`);
      }
    } finally {
      now = new Date();
    }
  });

  it("an appointment ending at the clock's instant has ended: past, no longer upcoming", async () => {
    const mine = async (section: 'upcoming' | 'past') =>
      ((await t.http.get('/api/v1/appointments/me').query({ section }).set(patient.auth).expect(200)).body as Array<{ appointment_id: string }>).map((a) => a.appointment_id);
    try {
      now = new Date(`${date}T05:29:59.999Z`);
      assert.ok((await mine('upcoming')).includes(first), 'a millisecond before its end, the 05:00 appointment is upcoming');
      assert.ok(!(await mine('past')).includes(first), 'a millisecond before its end, it is not past');
      for (const at of [`${date}T05:30:00.000Z`, `${date}T05:30:00.400Z`]) {
        now = new Date(at);
        assert.ok(!(await mine('upcoming')).includes(first), `at ${at} the appointment that ended at 05:30 is not upcoming`);
        assert.ok((await mine('past')).includes(first), `at ${at} it is past`);
      }
    } finally {
      now = new Date();
    }
  });
});
