import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { auditedReads, subjectIds } from '../support/access-audit';
import { heldAppointment } from '../support/held-appointment';

describe("a consultation's state, which names its patient to the doctor, is on the patient's access log", () => {
  let t: TestApp;
  let now = new Date();
  let doctor: TestUser;
  let patient: TestUser;

  before(async () => {
    t = await startTestApp({ clock: () => now, env: { CONSULTATION_SWEEP_INTERVAL_MS: '3600000' } });
    doctor = await t.createUser('doctor');
    patient = await t.createUser('patient');
  });
  after(() => t.close());

  it("the doctor's reading is recorded once per quarter of an hour however often the call page polls it; the patient's own is not", async () => {
    const id = await heldAppointment(t, { doctor, patient, hour: 11, setNow: (at) => (now = at) });
    const view = (who: TestUser) => t.http.get(`/api/v1/consultations/${id}`).set(who.auth).expect(200);
    const polls = await auditedReads(t, doctor, async () => {
      for (let i = 0; i < 6; i += 1) {
        await view(doctor);
        now = new Date(now.getTime() + 5_000);
      }
    });
    assert.deepEqual(
      polls.map((e) => [e.route, e.purpose, e.resource, subjectIds(e)]),
      [['GET /api/v1/consultations/:appointment_id', 'care', 'consultation', [patient.user_id]]],
      'six polls within a minute: one record',
    );
    now = new Date(now.getTime() + 15 * 60_000);
    assert.equal((await auditedReads(t, doctor, () => view(doctor))).length, 1, 'a quarter of an hour later: recorded again');
    assert.deepEqual(await auditedReads(t, patient, () => view(patient)), [], 'the patient reading their own consultation');
  });
});
