import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { API_TEXTS, CONSENT_NOTICE_VERSION, CONSENT_TEXTS } from '@telemed/contracts';
import { eventually } from '../support/eventually';
import { indiaDate, startTestApp, type TestApp, type TestUser } from '../support/test-app';

/**
 * A platform admin deactivates an account and reactivates it: the account works again in full. A patient gives
 * consent and books again; a doctor takes bookings again. Booking's checks keep folds of these streams between
 * requests, so each step also shows that a kept fold follows the account's newest events.
 */
describe('a reactivated account works again', () => {
  let t: TestApp;
  let operator: TestUser;
  let doctor: TestUser;
  let slots: number[];

  const setActive = async (user: TestUser, is_active: boolean) => {
    await t.http.put(`/api/v1/admin/users/${user.user_id}`).set(operator.auth).send({ is_active }).expect(200);
    await t.settle();
  };
  const book = (patient: TestUser, slotId: number) => t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: slotId, notes: 'Follow-up' });

  before(async () => {
    t = await startTestApp();
    operator = await t.createUser('admin');
    doctor = await t.createUser('doctor');
    slots = await t.openSlots(doctor, ['09:00', '09:30', '10:00', '10:30'].map((time) => ({ date: indiaDate(4), time })));
  });
  after(() => t.close());

  it('a patient deactivated and reactivated books again, and withdraws and gives consent again', async () => {
    const patient = await t.createUser('patient');
    await book(patient, slots[0]!).expect(201);
    await setActive(patient, false);
    await book(patient, slots[1]!).expect(401);
    await setActive(patient, true);
    // Signed in again: what was signed in before the deactivation stays ended.
    await book(patient, slots[1]!).expect(401);
    const again = await t.signInAgain(patient, 'patient');
    await book(again, slots[1]!).expect(201);

    await t.http.delete(`/api/v1/users/me/consents/${CONSENT_NOTICE_VERSION}`).set(again.auth).expect(200);
    assert.equal((await book(again, slots[2]!).expect(403)).body.detail, CONSENT_TEXTS.consentNeeded);
    await t.http.post('/api/v1/users/me/consents').set(again.auth).send({ notice_version: CONSENT_NOTICE_VERSION }).expect(201);
    await book(again, slots[2]!).expect(201);
  });

  it('a deactivation undone before the account closer handles it closes nothing booked or opened since', async () => {
    const other = await t.createUser('doctor');
    const patient = await t.createUser('patient');
    const [first] = await t.openSlots(other, [{ date: indiaDate(4), time: '15:00' }]);
    await book(patient, first!).expect(201);
    // Off and on again at once: the closer may handle the deactivation before or after the reactivation.
    await t.http.put(`/api/v1/admin/users/${other.user_id}`).set(operator.auth).send({ is_active: false }).expect(200);
    await t.http.put(`/api/v1/admin/users/${other.user_id}`).set(operator.auth).send({ is_active: true }).expect(200);
    const [later] = await t.openSlots(await t.signInAgain(other, 'doctor'), [{ date: indiaDate(4), time: '16:00' }]);
    // settle() waits until the closer has acted on both events (its saved checkpoint follows at most once a second).
    await t.settle();
    const again = await book(patient, later!);
    assert.equal(again.status, 201, `a slot opened after the reactivation is bookable: ${JSON.stringify(again.body)}`);
  });

  it('a doctor deactivated by a platform admin takes no bookings; reactivated, their new slots are booked', async () => {
    const patient = await t.createUser('patient');
    const before = await t.openSlots(doctor, [{ date: indiaDate(5), time: '09:00' }]);
    await book(patient, before[0]!).expect(201); // the kept fold of the doctor's account is warm now
    await setActive(doctor, false);
    // Deactivation also withdraws the doctor's open slots (the account closer), whichever answers first.
    const refused = await book(patient, slots[3]!).expect(409);
    assert.ok([API_TEXTS.doctorNotAccepting, API_TEXTS.slotNotAvailable].includes(refused.body.detail), refused.body.detail);
    // The account closer withdraws the doctor's open slots in the background: wait for it before reactivating.
    await eventually(async () => {
      const open = (await t.http.get(`/api/v1/doctors/${doctor.user_id}/available-slots`).set(patient.auth).expect(200)).body.slots;
      assert.deepEqual(open, []);
    }, 5000);
    await setActive(doctor, true);
    const reopened = await t.openSlots(await t.signInAgain(doctor, 'doctor'), [{ date: indiaDate(6), time: '11:00' }]);
    const again = await book(patient, reopened[0]!);
    assert.equal(again.status, 201, JSON.stringify({ reopened, body: again.body }));
  });
});
