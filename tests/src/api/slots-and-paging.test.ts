import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DateTime } from 'luxon';
import { streams } from '@telemed/contracts';
import { indiaDate, startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { apiSpec, type ApiSpec } from '../support/api-spec';

type SlotBody = { slot_id: number; slot_date: string; start_time: string; start_at: string };
type AppointmentBody = { appointment_id: string; slot: { start_at: string } };

describe('slots by window and appointment lists by page', () => {
  let t: TestApp;
  let spec: ApiSpec;
  const days = [1, 2, 3, 5];

  before(async () => {
    t = await startTestApp();
    spec = apiSpec(t);
  });
  after(() => t.close());

  /** Given a doctor of this case with slots at 07:00, 09:00 and 21:30 on each of `days`, and a patient. */
  async function doctorWithSlots() {
    const doctor = await spec.given.doctor();
    const patient = await spec.given.patient();
    await spec.given.slots(doctor, days.flatMap((d) => ['07:00', '09:00', '21:30'].map((time) => ({ days: d, time }))));
    const slotsOf = async (query = '') =>
      ((await spec.when((http) => http.get(`/api/v1/doctors/${doctor.user_id}/available-slots${query}`).set(patient.auth))).expectStatus(200).expectNoEvents().body as { slots: SlotBody[] }).slots;
    return { doctor, patient, slotsOf };
  }

  it('without a window: every upcoming slot, soonest first, as before', async () => {
    const { slotsOf } = await doctorWithSlots();
    const all = await slotsOf();
    assert.equal(all.length, days.length * 3);
    assert.deepEqual(all.map((s) => s.start_at), [...all.map((s) => s.start_at)].sort());
  });

  it('from and days: the slots of those local days only', async () => {
    const { slotsOf } = await doctorWithSlots();
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
    const { slotsOf } = await doctorWithSlots();
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
    const { doctor, patient } = await doctorWithSlots();
    for (const query of ['?from=2030-02-30', '?from=tomorrow', '?days=0', '?days=93', '?days=two']) {
      (await spec.when((http) => http.get(`/api/v1/doctors/${doctor.user_id}/available-slots${query}`).set(patient.auth))).expectStatus(422).expectNoEvents();
    }
  });

  it("pages a doctor's /appointments/me (upcoming soonest first, past newest first) with limit and cursor", async () => {
    const { doctor, patient, slotsOf } = await doctorWithSlots();
    const open = await slotsOf();
    const booked = open.slice(0, 5);
    for (const slot of booked) {
      const res = (await spec.when((http) => http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: slot.slot_id, notes: 'page' }))).expectStatus(201);
      res.expectEvents([
        { stream: streams.slot(slot.slot_id), type: 'SlotReserved' },
        { stream: streams.appointment(res.body.appointment_id), type: 'AppointmentRequested' },
      ]);
    }
    const list = async (auth: TestUser, query: string) =>
      ((await spec.read((http) => http.get(`/api/v1/appointments/me${query}`).set(auth.auth))).body as AppointmentBody[]);
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
    for (const a of all.slice(0, 3)) {
      (await spec.when((http) => http.post(`/api/v1/appointments/${a.appointment_id}/reject`).set(doctor.auth)))
        .expectStatus(200)
        .expectEvents([{ stream: streams.appointment(a.appointment_id), type: 'AppointmentRejected' }])
        .expectReactions([{ type: 'SlotReleased' }]);
    }
    const past = await list(doctor, '?section=past');
    assert.deepEqual(past.map((a) => a.appointment_id), all.slice(0, 3).reverse().map((a) => a.appointment_id));
    const page1 = await list(doctor, '?section=past&limit=2');
    const page2 = await list(doctor, `?section=past&limit=2&cursor=${page1[1]!.appointment_id}`);
    assert.deepEqual([...page1, ...page2].map((a) => a.appointment_id), past.map((a) => a.appointment_id));
  });

  it("refuses a cursor that is not one of the caller's appointments", async () => {
    const doctor = await spec.given.doctor();
    const patient = await spec.given.patient();
    const stranger = await spec.given.patient();
    await spec.given.appointment({ doctor, patient });
    const mine = (await spec.read((http) => http.get('/api/v1/appointments/me?include_past=true&status=requested,rejected').set(patient.auth).expect(200))).body as AppointmentBody[];
    (await spec.when((http) => http.get(`/api/v1/appointments/me?cursor=${mine[0]!.appointment_id}`).set(stranger.auth))).expectStatus(422).expectNoEvents();
    (await spec.when((http) => http.get('/api/v1/appointments/me?cursor=nothing-here').set(patient.auth))).expectStatus(422).expectNoEvents();
  });
});

describe("a doctor's open slots served again (kept between requests, checked by the doctor's slot revision)", () => {
  let t: TestApp;
  let spec: ApiSpec;
  let now = new Date();

  before(async () => {
    t = await startTestApp({ clock: () => now });
    spec = apiSpec(t);
  });
  after(() => t.close());

  /** Given a doctor and a patient of this case, and reads of the doctor's open slots as the patient and the public see them. */
  async function doctorAndPatient() {
    now = new Date();
    const doctor = await spec.given.doctor();
    const patient = await spec.given.patient();
    const starts = async (zone = 'Asia/Kolkata') =>
      ((await spec.read((http) => http.get(`/api/v1/doctors/${doctor.user_id}/available-slots?timezone_str=${zone}`).set(patient.auth).expect(200))).body as { slots: SlotBody[] }).slots.map(
        (s) => `${s.slot_date} ${s.start_time}`,
      );
    const publicCount = async () => ((await spec.read((http) => http.get(`/api/v1/public/doctors/${doctor.user_id}`).expect(200))).body as { slots: unknown[] }).slots.length;
    return { doctor, patient, starts, publicCount };
  }

  it('follows every booking, rejection and withdrawal, in each zone asked for, and the clock', async () => {
    const { doctor, patient, starts, publicCount } = await doctorAndPatient();
    const wanted = [1, 2].flatMap((days) => ['09:00', '10:00'].map((time) => ({ days, time })));
    const ids = await spec.given.slots(doctor, wanted);
    const all = await starts();
    assert.equal(all.length, 4);
    const inNewYork = await starts('America/New_York');
    assert.equal(inNewYork.length, 4);
    assert.equal(await publicCount(), 4);

    const booked = (await spec.when((http) => http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: ids[1], notes: 'cache' }))).expectStatus(201);
    const appointmentId = (booked.body as { appointment_id: string }).appointment_id;
    booked.expectEvents([
      { stream: streams.slot(ids[1]!), type: 'SlotReserved' },
      { stream: streams.appointment(appointmentId), type: 'AppointmentRequested' },
    ]);
    assert.deepEqual(await starts(), [all[0], all[2], all[3]], 'a reserved slot leaves the list at once');
    assert.equal((await starts('America/New_York')).length, 3, 'in every zone rendered before');
    assert.equal(await publicCount(), 3);

    (await spec.when((http) => http.post(`/api/v1/appointments/${appointmentId}/reject`).set(doctor.auth).send({ reason: 'away' })))
      .expectStatus(200)
      .expectEvents([{ stream: streams.appointment(appointmentId), type: 'AppointmentRejected' }])
      .expectReactions([{ stream: streams.slot(ids[1]!), type: 'SlotReleased' }]);
    assert.deepEqual(await starts(), all, 'a released slot comes back');

    await t.openSlots(doctor, wanted.slice(0, 3).map((s) => ({ date: indiaDate(s.days), time: s.time })));
    assert.deepEqual(await starts(), all.slice(0, 3), 'a withdrawn slot goes');

    now = new Date(Date.parse(`${indiaDate(1)}T09:30:00+05:30`));
    assert.deepEqual(await starts(), all.slice(1, 3), 'a slot that has begun is no longer upcoming, with no event at all');
    now = new Date();
    assert.deepEqual(await starts(), all.slice(0, 3), 'and a clock set back reads again');
  });

  it('answers a repeated request with its ETag by 304, and a changed list with a new body', async () => {
    const { doctor, patient } = await doctorAndPatient();
    const url = `/api/v1/doctors/${doctor.user_id}/available-slots`;
    const first = (await spec.when((http) => http.get(url).set(patient.auth))).expectStatus(200).expectNoEvents();
    assert.match(String(first.headers['content-type']), /^application\/json; charset=utf-8/);
    const etag = String(first.headers.etag);
    (await spec.when((http) => http.get(url).set(patient.auth).set('If-None-Match', etag))).expectStatus(304).expectNoEvents();
    await spec.given.slots(doctor, [{ days: 3, time: '11:00' }]);
    const changed = (await spec.when((http) => http.get(url).set(patient.auth).set('If-None-Match', etag))).expectStatus(200);
    assert.notEqual(changed.headers.etag, etag);
    assert.equal((changed.body as { slots: unknown[] }).slots.length, 1);
  });
});
