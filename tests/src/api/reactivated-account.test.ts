import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { API_TEXTS, CONSENT_NOTICE_VERSION, CONSENT_TEXTS, streams } from '@telemed/contracts';
import { indiaDate, startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { apiSpec, type ApiSpec, type Then } from '../support/api-spec';
import { typesByStream } from '../support/spec-streams';

/**
 * A platform admin deactivates an account and reactivates it: the account works again in full. A patient gives
 * consent and books again; a doctor takes bookings again. Booking's checks keep folds of these streams between
 * requests, so each step also shows that a kept fold follows the account's newest events.
 */
describe('a reactivated account works again', () => {
  let t: TestApp;
  let spec: ApiSpec;

  before(async () => {
    t = await startTestApp();
    spec = apiSpec(t);
  });
  after(() => t.close());

  /** The operator's answer shows the account, a read of its person recorded on the operator's access log. */
  const setActive = async (operator: TestUser, user: TestUser, is_active: boolean) =>
    (await spec.when((http) => http.put(`/api/v1/admin/users/${user.user_id}`).set(operator.auth).send({ is_active })))
      .expectStatus(200)
      .expectEvents([
        { stream: streams.accessAudit(operator.user_id), type: 'PersonalDataAccessed' },
        { stream: streams.user(user.user_id), type: is_active ? 'UserReactivated' : 'UserDeactivated' },
      ]);
  /** Signed in again after a reactivation, the doctor opens this slot (and only it): its id. */
  const reopen = async (doctor: TestUser, at: { days: number; time: string }) => {
    const ids = await t.openSlots(await t.signInAgain(doctor, 'doctor'), [{ date: indiaDate(at.days), time: at.time }]);
    assert.equal(ids.length, 1, `the slot ${at.days} days ahead at ${at.time} opened`);
    return ids[0]!;
  };
  const book = (patient: TestUser, slot_id: number) => spec.when((http) => http.post('/api/v1/appointments').set(patient.auth).send({ slot_id, notes: 'Follow-up' }));
  /** Booked: the slot's reservation, then the appointment. */
  const expectBooked = (res: Then, slot_id: number) =>
    res.expectStatus(201).expectEvents([
      { stream: streams.slot(slot_id), type: 'SlotReserved' },
      { stream: streams.appointment(res.body.appointment_id), type: 'AppointmentRequested' },
    ]);

  it('a patient deactivated and reactivated books again, and withdraws and gives consent again', async () => {
    const operator = await t.createUser('admin');
    const doctor = await spec.given.doctor();
    const [first, second, third] = await spec.given.slots(doctor, ['09:00', '09:30', '10:00'].map((time) => ({ days: 4, time })));
    const patient = await spec.given.patient();
    expectBooked(await book(patient, first!), first!);
    await setActive(operator, patient, false);
    (await book(patient, second!)).expectStatus(401).expectNoEvents();
    await setActive(operator, patient, true);
    // Signed in again: what was signed in before the deactivation stays ended.
    (await book(patient, second!)).expectStatus(401).expectNoEvents();
    const again = await t.signInAgain(patient, 'patient');
    expectBooked(await book(again, second!), second!);

    (await spec.when((http) => http.delete(`/api/v1/users/me/consents/${CONSENT_NOTICE_VERSION}`).set(again.auth)))
      .expectStatus(200)
      .expectEvents([{ stream: streams.user(patient.user_id), type: 'ConsentWithdrawn' }]);
    assert.equal((await book(again, third!)).expectStatus(403).expectNoEvents().body.detail, CONSENT_TEXTS.consentNeeded);
    (await spec.when((http) => http.post('/api/v1/users/me/consents').set(again.auth).send({ notice_version: CONSENT_NOTICE_VERSION })))
      .expectStatus(201)
      .expectEvents([{ stream: streams.user(patient.user_id), type: 'ConsentGiven' }]);
    expectBooked(await book(again, third!), third!);
  });

  it('a deactivation undone before the account closer handles it closes nothing booked or opened since', async () => {
    const operator = await t.createUser('admin');
    const other = await spec.given.doctor();
    const patient = await spec.given.patient();
    await spec.given.appointment({ doctor: other, patient, at: { days: 4, time: '15:00' } });
    // Off and on again at once (no settling between): the closer may handle the deactivation before or after the reactivation.
    await t.http.put(`/api/v1/admin/users/${other.user_id}`).set(operator.auth).send({ is_active: false }).expect(200);
    await t.http.put(`/api/v1/admin/users/${other.user_id}`).set(operator.auth).send({ is_active: true }).expect(200);
    const later = await reopen(other, { days: 4, time: '16:00' });
    // The request under test waits until the closer has acted on both events: a slot opened after the reactivation is bookable.
    expectBooked(await book(patient, later), later);
  });

  it('a doctor deactivated by a platform admin takes no bookings; reactivated, their new slots are booked', async () => {
    const operator = await t.createUser('admin');
    const doctor = await spec.given.doctor();
    const patient = await spec.given.patient();
    const [warm, open] = await spec.given.slots(doctor, [
      { days: 5, time: '09:00' },
      { days: 4, time: '10:30' },
    ]);
    const request = expectBooked(await book(patient, warm!), warm!).body.appointment_id as string; // the kept fold of the doctor's account is warm now
    // The account closer declines the request and withdraws the doctor's slots in answer, the booked one once released.
    assert.deepEqual(typesByStream((await setActive(operator, doctor, false)).reactions), {
      [streams.appointment(request)]: ['AppointmentRejected'],
      [streams.slot(warm!)]: ['SlotReleased', 'SlotWithdrawn'],
      [streams.slot(open!)]: ['SlotWithdrawn'],
    });
    const refused = (await book(patient, open!)).expectStatus(409).expectNoEvents();
    assert.ok([API_TEXTS.doctorNotAccepting, API_TEXTS.slotNotAvailable].includes(refused.body.detail), refused.body.detail);
    assert.deepEqual((await spec.read((http) => http.get(`/api/v1/doctors/${doctor.user_id}/available-slots`).set(patient.auth).expect(200))).body.slots, []);
    await setActive(operator, doctor, true);
    const reopened = await reopen(doctor, { days: 6, time: '11:00' });
    expectBooked(await book(patient, reopened), reopened);
  });
});
