import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { API_TEXTS, CONSENT_NOTICE_VERSION, streams } from '@telemed/contracts';
import { startTestApp, type TestApp } from '../support/test-app';
import { apiSpec, type ApiSpec } from '../support/api-spec';

type Pending = { appointment_id: string };
type Mine = { appointment_id: string; status: string; rejection_reason: string | null; status_reason?: string | null };

/**
 * Withdrawing consent stops the processing it allowed (DPDP Act §6(6)): a request the doctor could no longer approve
 * does not wait in their list with the patient's reason for the visit; it is declined by the system, its slot open
 * again. A confirmed appointment stays the patient's to keep or cancel.
 */
describe('a withdrawn consent closes the requests still waiting', () => {
  let t: TestApp;
  let spec: ApiSpec;

  before(async () => {
    t = await startTestApp();
    spec = apiSpec(t);
  });
  after(() => t.close());

  it('declines each waiting request, keeps the confirmed one, and frees the slot', async () => {
    const doctor = await spec.given.doctor();
    const patient = await spec.given.patient();
    const waiting = await spec.given.appointment({ doctor, patient, at: { days: 3, time: '10:00' }, notes: 'Private reason' });
    const kept = await spec.given.appointment({ doctor, patient, at: { days: 3, time: '11:00' }, notes: 'Follow-up', confirmed: true });
    const requested = waiting.appointment_id;

    (await spec.when((http) => http.delete(`/api/v1/users/me/consents/${CONSENT_NOTICE_VERSION}`).set(patient.auth)))
      .expectStatus(200)
      .expectEvents([{ stream: streams.user(patient.user_id), type: 'ConsentWithdrawn' }])
      .expectReactions([
        { stream: streams.appointment(requested), type: 'AppointmentRejected' },
        { stream: streams.slot(waiting.slot.slot_id), type: 'SlotReleased' },
      ]);
    const read = async <T>(user: typeof doctor, url: string) => (await spec.read((http) => http.get(url).set(user.auth).expect(200))).body as T;
    const pending = await read<Pending[]>(doctor, '/api/v1/appointments/pending');
    assert.ok(!pending.some((p) => p.appointment_id === requested), 'no longer waiting on the doctor');
    const past = await read<Mine[]>(patient, '/api/v1/appointments/me?section=past');
    const closed = past.find((a) => a.appointment_id === requested);
    assert.equal(closed?.status, 'rejected', JSON.stringify(past));
    assert.equal(closed?.rejection_reason, API_TEXTS.consentWithdrawn);
    assert.equal(closed?.status_reason, 'consent_withdrawn', "not the doctor's decision: the screens say withdrawn, not declined");
    const doctorsPast = await read<Mine[]>(doctor, '/api/v1/appointments/me?section=past');
    assert.equal(doctorsPast.find((a) => a.appointment_id === requested)?.status_reason, 'consent_withdrawn');
    const upcoming = await read<Mine[]>(patient, '/api/v1/appointments/me?section=upcoming');
    assert.equal(upcoming.find((a) => a.appointment_id === kept.appointment_id)?.status, 'confirmed', 'a confirmed appointment is kept');
    const open = (await read<{ slots: Array<{ slot_id: number }> }>(doctor, `/api/v1/doctors/${doctor.user_id}/available-slots`)).slots;
    assert.ok(open.some((s) => s.slot_id === waiting.slot.slot_id), 'the slot is offered again');
  });
});
