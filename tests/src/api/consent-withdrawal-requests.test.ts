import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { API_TEXTS, CONSENT_NOTICE_VERSION } from '@telemed/contracts';
import { eventually } from '../support/eventually';
import { indiaDate, startTestApp, type TestApp, type TestUser } from '../support/test-app';

type Pending = { appointment_id: string };
type Mine = { appointment_id: string; status: string; rejection_reason: string | null; status_reason?: string | null };

/**
 * Withdrawing consent stops the processing it allowed (DPDP Act §6(6)): a request the doctor could no longer approve
 * does not wait in their list with the patient's reason for the visit; it is declined by the system, its slot open
 * again. A confirmed appointment stays the patient's to keep or cancel.
 */
describe('a withdrawn consent closes the requests still waiting', () => {
  let t: TestApp;
  let doctor: TestUser;
  let patient: TestUser;

  before(async () => {
    t = await startTestApp();
    doctor = await t.createUser('doctor');
    patient = await t.createUser('patient');
  });
  after(() => t.close());

  it('declines each waiting request, keeps the confirmed one, and frees the slot', async () => {
    const [waiting, confirmed] = await t.openSlots(doctor, [{ date: indiaDate(3), time: '10:00' }, { date: indiaDate(3), time: '11:00' }]);
    const requested = (await t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: waiting, notes: 'Private reason' }).expect(201)).body.appointment_id as string;
    const kept = (await t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: confirmed, notes: 'Follow-up' }).expect(201)).body.appointment_id as string;
    await t.http.post(`/api/v1/appointments/${kept}/approve`).set(doctor.auth).expect(200);
    await t.settle();

    await t.http.delete(`/api/v1/users/me/consents/${CONSENT_NOTICE_VERSION}`).set(patient.auth).expect(200);
    await eventually(async () => {
      await t.settle();
      const pending = (await t.http.get('/api/v1/appointments/pending').set(doctor.auth).expect(200)).body as Pending[];
      assert.ok(!pending.some((p) => p.appointment_id === requested), 'no longer waiting on the doctor');
    }, 8000);
    const past = (await t.http.get('/api/v1/appointments/me?section=past').set(patient.auth).expect(200)).body as Mine[];
    const closed = past.find((a) => a.appointment_id === requested);
    assert.equal(closed?.status, 'rejected', JSON.stringify(past));
    assert.equal(closed?.rejection_reason, API_TEXTS.consentWithdrawn);
    assert.equal(closed?.status_reason, 'consent_withdrawn', "not the doctor's decision: the screens say withdrawn, not declined");
    const doctorsPast = (await t.http.get('/api/v1/appointments/me?section=past').set(doctor.auth).expect(200)).body as Mine[];
    assert.equal(doctorsPast.find((a) => a.appointment_id === requested)?.status_reason, 'consent_withdrawn');
    const upcoming = (await t.http.get('/api/v1/appointments/me?section=upcoming').set(patient.auth).expect(200)).body as Mine[];
    assert.equal(upcoming.find((a) => a.appointment_id === kept)?.status, 'confirmed', 'a confirmed appointment is kept');
    await eventually(async () => {
      await t.settle();
      const open = (await t.http.get(`/api/v1/doctors/${doctor.user_id}/available-slots`).set(doctor.auth).expect(200)).body.slots as Array<{ slot_id: number }>;
      assert.ok(open.some((s) => s.slot_id === waiting), 'the slot is offered again');
    }, 8000);
  });
});
