import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DateTime } from 'luxon';
import { DEFAULT_TIMEZONE, STARTING_CREDITS, streams } from '@telemed/contracts';
import { indiaDate, startTestApp, type TestApp, type TestUser } from '../support/test-app';

/**
 * Fees by rule (issue 36), through the HTTP API with the product's grant of 100 credits: a request holds its doctor's
 * fee (402 without the credits, the slot left open); a rejection, a doctor's cancellation or an expiry gives it back;
 * the consultation taking place keeps it; a late cancellation keeps it where the doctor counts one as a no-show.
 */
describe('fees held and settled by rule', () => {
  let t: TestApp;
  let now = new Date();
  before(async () => {
    t = await startTestApp({ env: { STARTING_CREDITS: String(STARTING_CREDITS) }, clock: () => now });
  });
  after(() => t.close());

  const wallet = async (patient: TestUser) => {
    await t.settle();
    return (await t.http.get('/api/v1/wallet/me').set(patient.auth).expect(200)).body as { balance: number; held: number };
  };
  const doctorCharging = (fee: number) => t.createUser('doctor', { doctor: { consultation_fee: fee } });
  const request = (patient: TestUser, slot: number) => t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: slot, notes: 'Fever for three days' });
  const walletEvents = async (patient: TestUser) => (await t.app.eventStore.readStream(streams.wallet(patient.user_id))).map((e) => [e.type, (e.data as { reason?: string }).reason ?? null, (e.data as { credits: number }).credits]);

  it('a request holds the fee; a rejection gives it back in full', async () => {
    now = new Date();
    const [doctor, patient] = [await doctorCharging(60), await t.createUser('patient')];
    const [slot] = await t.openSlots(doctor, [{ date: indiaDate(2), time: '10:00' }]);
    const id = (await request(patient, slot!).expect(201)).body.appointment_id as string;
    assert.deepEqual([(await wallet(patient)).balance, (await wallet(patient)).held], [40, 60]);
    await t.http.post(`/api/v1/appointments/${id}/reject`).set(doctor.auth).send({ reason: 'Not my specialty' }).expect(200);
    await t.settle();
    assert.deepEqual([(await wallet(patient)).balance, (await wallet(patient)).held], [100, 0]);
    assert.deepEqual(await walletEvents(patient), [['WalletOpened', null, 100], ['FeeHeld', null, 60], ['FeeReturned', 'rejected', 60]]);
  });

  it('without the credits a request is refused with 402, writes nothing to the wallet, and leaves the slot open', async () => {
    now = new Date();
    const [doctor, patient] = [await doctorCharging(150), await t.createUser('patient')];
    const [slot] = await t.openSlots(doctor, [{ date: indiaDate(2), time: '11:00' }]);
    const refused = await request(patient, slot!).expect(402);
    assert.deepEqual(refused.body, { detail: 'This consultation needs 150 credits and you have 100. Add credits to book it.', code: 'insufficient_credits', values: ['150', '100'] });
    assert.deepEqual(await walletEvents(patient), []);
    await t.settle();
    const open = (await t.http.get(`/api/v1/doctors/${doctor.user_id}/available-slots`).set(patient.auth).expect(200)).body.slots as Array<{ slot_id: number }>;
    assert.ok(open.some((s) => s.slot_id === slot), 'the slot is offered again at once');
    // A free doctor's request holds nothing.
    const free = await doctorCharging(0);
    const [freeSlot] = await t.openSlots(free, [{ date: indiaDate(2), time: '11:00' }]);
    await request(patient, freeSlot!).expect(201);
    assert.deepEqual(await walletEvents(patient), []);
  });

  it('the consultation taking place keeps the fee; a doctor cancelling gives it back', async () => {
    now = new Date();
    const [doctor, patient] = [await doctorCharging(30), await t.createUser('patient')];
    const date = indiaDate(2);
    const [first, second] = await t.openSlots(doctor, [{ date, time: '09:00' }, { date, time: '12:00' }]);
    const kept = (await request(patient, first!).expect(201)).body.appointment_id as string;
    const cancelled = (await request(patient, second!).expect(201)).body.appointment_id as string;
    await t.http.post(`/api/v1/appointments/${kept}/approve`).set(doctor.auth).expect(200);
    await t.http.post(`/api/v1/appointments/${cancelled}/approve`).set(doctor.auth).expect(200);
    assert.deepEqual([(await wallet(patient)).balance, (await wallet(patient)).held], [40, 60]);
    await t.http.post(`/api/v1/appointments/${cancelled}/cancel`).set(doctor.auth).send({ reason: 'Called away' }).expect(200);

    now = DateTime.fromISO(`${date}T09:00`, { zone: DEFAULT_TIMEZONE }).plus({ minutes: 1 }).toJSDate();
    await t.http.post(`/api/v1/consultations/${kept}/join`).set(doctor.auth).expect(200);
    await t.http.post(`/api/v1/consultations/${kept}/join`).set(patient.auth).expect(200);
    await t.http.post(`/api/v1/consultations/${kept}/end`).set(doctor.auth).expect(200);
    await t.settle();
    assert.deepEqual([(await wallet(patient)).balance, (await wallet(patient)).held], [70, 0]);
    assert.deepEqual((await walletEvents(patient)).slice(3), [['FeeReturned', 'cancelled', 30], ['FeeCharged', 'consultation', 30]]);
    // The doctor's earnings are the fee kept, today and in its month (the returned one earned nothing).
    const earnings = (await t.http.get('/api/v1/doctors/me/earnings?months=3&timezone_str=Asia/Kolkata').set(doctor.auth).expect(200)).body as { months: Array<{ month: string; rupees: number; consultations: number }>; today: unknown };
    assert.deepEqual(earnings.today, { rupees: 30, consultations: 1 });
    assert.deepEqual(earnings.months.at(-1), { month: DateTime.fromJSDate(now, { zone: DEFAULT_TIMEZONE }).toFormat('yyyy-MM'), rupees: 30, consultations: 1 });
    assert.deepEqual(earnings.months.slice(0, 2).map((m) => m.rupees), [0, 0]);
    await t.http.get('/api/v1/doctors/me/earnings').set(patient.auth).expect(403);
  });

  it("a patient's late cancellation keeps the fee where the doctor counts one as a no-show, and gives it back where not", async () => {
    now = new Date();
    const [strict, lenient, patient] = [await doctorCharging(20), await doctorCharging(20), await t.createUser('patient')];
    const rules = { min_notice_minutes: 7 * 24 * 60, max_reschedules: 2, auto_accept_moves: false };
    await t.http.put('/api/v1/doctors/me/booking-rules').set(strict.auth).send({ ...rules, late_cancellation: 'no_show' }).expect(200);
    await t.http.put('/api/v1/doctors/me/booking-rules').set(lenient.auth).send({ ...rules, late_cancellation: 'cancellation' }).expect(200);
    const ids: string[] = [];
    for (const doctor of [strict, lenient]) {
      const [slot] = await t.openSlots(doctor, [{ date: indiaDate(2), time: '15:00' }]);
      const id = (await request(patient, slot!).expect(201)).body.appointment_id as string;
      await t.http.post(`/api/v1/appointments/${id}/approve`).set(doctor.auth).expect(200);
      ids.push(id);
    }
    for (const id of ids) await t.http.post(`/api/v1/appointments/${id}/cancel`).set(patient.auth).send({ reason: 'Cannot come' }).expect(200);
    await t.settle();
    assert.deepEqual([(await wallet(patient)).balance, (await wallet(patient)).held], [80, 0]);
    assert.deepEqual((await walletEvents(patient)).slice(3), [['FeeCharged', 'late_cancellation', 20], ['FeeReturned', 'cancelled', 20]]);
  });

  it('ten requests at once on a wallet that covers three: exactly three are held, the others refused with 402 and their slots free', async () => {
    now = new Date();
    const [doctor, patient] = [await doctorCharging(30), await t.createUser('patient')];
    const times = ['09:00', '09:30', '10:00', '10:30', '11:00', '11:30', '17:00', '17:30', '18:00', '18:30'];
    const slots = await t.openSlots(doctor, times.map((time) => ({ date: indiaDate(3), time })));
    assert.equal(slots.length, 10);
    const answers = await Promise.all(slots.map((slot) => request(patient, slot)));
    assert.deepEqual(answers.map((a) => a.status).sort(), [201, 201, 201, 402, 402, 402, 402, 402, 402, 402]);
    assert.deepEqual([(await wallet(patient)).balance, (await wallet(patient)).held], [10, 90]);
    const open = (await t.http.get(`/api/v1/doctors/${doctor.user_id}/available-slots`).set(patient.auth).expect(200)).body.slots as Array<{ slot_id: number }>;
    const refused = slots.filter((_slot, i) => answers[i]!.status === 402);
    assert.ok(refused.every((slot) => open.some((s) => s.slot_id === slot)), 'every refused request left its slot open');
  });
});
