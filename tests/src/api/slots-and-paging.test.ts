import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DateTime } from 'luxon';
import { indiaDate, startTestApp, type TestApp, type TestUser } from '../support/test-app';

type SlotBody = { slot_id: number; slot_date: string; start_time: string; start_at: string };
type AppointmentBody = { appointment_id: string; slot: { start_at: string } };

describe('slots by window and appointment lists by page', () => {
  let t: TestApp;
  let doctor: TestUser;
  let patient: TestUser;
  const days = [1, 2, 3, 5];

  before(async () => {
    t = await startTestApp();
    doctor = await t.createUser('doctor');
    patient = await t.createUser('patient');
    await t.openSlots(doctor, days.flatMap((d) => ['07:00', '09:00', '21:30'].map((time) => ({ date: indiaDate(d), time }))));
  });
  after(() => t.close());

  const slotsOf = async (query = '') =>
    ((await t.http.get(`/api/v1/doctors/${doctor.user_id}/available-slots${query}`).set(patient.auth).expect(200)).body as { slots: SlotBody[] }).slots;

  it('without a window: every upcoming slot, soonest first, as before', async () => {
    const all = await slotsOf();
    assert.equal(all.length, days.length * 3);
    assert.deepEqual(all.map((s) => s.start_at), [...all.map((s) => s.start_at)].sort());
  });

  it('from and days: the slots of those local days only', async () => {
    const window = await slotsOf(`?from=${indiaDate(2)}&days=2`);
    assert.deepEqual([...new Set(window.map((s) => s.slot_date))], [indiaDate(2), indiaDate(3)]);
    assert.equal(window.length, 6);
    assert.deepEqual(await slotsOf(`?from=${indiaDate(4)}&days=1`), []);
    const fromToday = await slotsOf('?days=2');
    assert.deepEqual([...new Set(fromToday.map((s) => s.slot_date))], [indiaDate(1)], 'days alone counts from today');
    const defaultWeek = await slotsOf(`?from=${indiaDate(1)}`);
    assert.equal(defaultWeek.length, days.length * 3, 'from alone is a week');
  });

  it("the window's days are the caller's local days (a zone with daylight saving)", async () => {
    const zone = 'America/New_York';
    const all = await slotsOf(`?timezone_str=${zone}`);
    const localDay = all[1]!.slot_date;
    const inDay = await slotsOf(`?timezone_str=${zone}&from=${localDay}&days=1`);
    assert.deepEqual(inDay, all.filter((s) => s.slot_date === localDay));
    for (const slot of all) {
      const local = DateTime.fromISO(slot.start_at, { zone });
      assert.equal(slot.slot_date, local.toISODate());
      assert.equal(slot.start_time, local.toFormat('HH:mm:ss'));
    }
  });

  it('refuses bad windows with 422', async () => {
    for (const query of ['?from=2030-02-30', '?from=tomorrow', '?days=0', '?days=93', '?days=two']) {
      await t.http.get(`/api/v1/doctors/${doctor.user_id}/available-slots${query}`).set(patient.auth).expect(422);
    }
  });

  it("pages a doctor's /appointments/me (upcoming soonest first, past newest first) with limit and cursor", async () => {
    const open = await slotsOf();
    const booked = open.slice(0, 5);
    for (const slot of booked) await t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: slot.slot_id, notes: 'page' }).expect(201);
    await t.settle();
    const list = async (auth: TestUser, query: string) =>
      ((await t.http.get(`/api/v1/appointments/me${query}`).set(auth.auth).expect(200)).body as AppointmentBody[]);
    for (const who of [doctor, patient]) {
      const all = await list(who, '');
      assert.equal(all.length, 5, 'the default shape: the whole upcoming list');
      const first = await list(who, '?section=upcoming&limit=2');
      const second = await list(who, `?section=upcoming&limit=2&cursor=${first[1]!.appointment_id}`);
      const third = await list(who, `?section=upcoming&limit=2&cursor=${second[1]!.appointment_id}`);
      assert.deepEqual([...first, ...second, ...third].map((a) => a.appointment_id), all.map((a) => a.appointment_id));
      assert.equal(third.length, 1, 'a short page is the last');
      const byStatus = await list(who, `?limit=3&cursor=${all[2]!.appointment_id}`);
      assert.deepEqual(byStatus.map((a) => a.appointment_id), all.slice(3).map((a) => a.appointment_id));
    }
    // Declined ones are past: newest first, paged the other way.
    const all = await list(doctor, '');
    for (const a of all.slice(0, 3)) await t.http.post(`/api/v1/appointments/${a.appointment_id}/reject`).set(doctor.auth).expect(200);
    await t.settle();
    const past = await list(doctor, '?section=past');
    assert.deepEqual(past.map((a) => a.appointment_id), all.slice(0, 3).reverse().map((a) => a.appointment_id));
    const page1 = await list(doctor, '?section=past&limit=2');
    const page2 = await list(doctor, `?section=past&limit=2&cursor=${page1[1]!.appointment_id}`);
    assert.deepEqual([...page1, ...page2].map((a) => a.appointment_id), past.map((a) => a.appointment_id));
  });

  it("refuses a cursor that is not one of the caller's appointments", async () => {
    const stranger = await t.createUser('patient');
    const mine = (await t.http.get('/api/v1/appointments/me?include_past=true&status=requested,rejected').set(patient.auth).expect(200)).body as AppointmentBody[];
    await t.http.get(`/api/v1/appointments/me?cursor=${mine[0]!.appointment_id}`).set(stranger.auth).expect(422);
    await t.http.get('/api/v1/appointments/me?cursor=nothing-here').set(patient.auth).expect(422);
  });
});

describe("a doctor's open slots served again (kept between requests, checked by the doctor's slot revision)", () => {
  let t: TestApp;
  let doctor: TestUser;
  let patient: TestUser;
  let now = new Date();

  before(async () => {
    t = await startTestApp({ clock: () => now });
    doctor = await t.createUser('doctor');
    patient = await t.createUser('patient');
  });
  after(() => t.close());

  const starts = async (zone = 'Asia/Kolkata') =>
    ((await t.http.get(`/api/v1/doctors/${doctor.user_id}/available-slots?timezone_str=${zone}`).set(patient.auth).expect(200)).body as { slots: SlotBody[] }).slots.map(
      (s) => `${s.slot_date} ${s.start_time}`,
    );
  const publicCount = async () => ((await t.http.get(`/api/v1/public/doctors/${doctor.user_id}`).expect(200)).body as { slots: unknown[] }).slots.length;

  it('follows every booking, rejection and withdrawal, in each zone asked for, and the clock', async () => {
    const wanted = [1, 2].flatMap((d) => ['09:00', '10:00'].map((time) => ({ date: indiaDate(d), time })));
    const ids = await t.openSlots(doctor, wanted);
    const all = await starts();
    assert.equal(all.length, 4);
    const inNewYork = await starts('America/New_York');
    assert.equal(inNewYork.length, 4);
    assert.equal(await publicCount(), 4);

    const booked = await t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: ids[1], notes: 'cache' }).expect(201);
    await t.settle();
    assert.deepEqual(await starts(), [all[0], all[2], all[3]], 'a reserved slot leaves the list at once');
    assert.equal((await starts('America/New_York')).length, 3, 'in every zone rendered before');
    assert.equal(await publicCount(), 3);

    await t.http.post(`/api/v1/appointments/${(booked.body as { appointment_id: string }).appointment_id}/reject`).set(doctor.auth).send({ reason: 'away' }).expect(200);
    await t.settle();
    assert.deepEqual(await starts(), all, 'a released slot comes back');

    await t.openSlots(doctor, wanted.slice(0, 3));
    assert.deepEqual(await starts(), all.slice(0, 3), 'a withdrawn slot goes');

    now = new Date(Date.parse(`${indiaDate(1)}T09:30:00+05:30`));
    assert.deepEqual(await starts(), all.slice(1, 3), 'a slot that has begun is no longer upcoming, with no event at all');
    now = new Date();
    assert.deepEqual(await starts(), all.slice(0, 3), 'and a clock set back reads again');
  });

  it('answers a repeated request with its ETag by 304, and a changed list with a new body', async () => {
    const url = `/api/v1/doctors/${doctor.user_id}/available-slots`;
    const first = await t.http.get(url).set(patient.auth).expect(200);
    assert.match(String(first.headers['content-type']), /^application\/json; charset=utf-8/);
    const etag = String(first.headers.etag);
    await t.http.get(url).set(patient.auth).set('If-None-Match', etag).expect(304);
    await t.openSlots(doctor, [{ date: indiaDate(3), time: '11:00' }]);
    const changed = await t.http.get(url).set(patient.auth).set('If-None-Match', etag).expect(200);
    assert.notEqual(changed.headers.etag, etag);
    assert.equal((changed.body as { slots: unknown[] }).slots.length, 1);
  });
});
