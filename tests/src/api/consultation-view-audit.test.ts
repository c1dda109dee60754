import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { streams } from '@telemed/contracts';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { apiSpec, type ApiSpec } from '../support/api-spec';
import { subjectIds, type Access } from '../support/access-audit';
import { heldAppointment } from '../support/held-appointment';

describe("a consultation's state, which names its patient to the doctor, is on the patient's access log", () => {
  let t: TestApp;
  let spec: ApiSpec;
  let now = new Date();

  before(async () => {
    t = await startTestApp({ clock: () => now, env: { CONSULTATION_SWEEP_INTERVAL_MS: '3600000' } });
    spec = apiSpec(t);
  });
  after(() => t.close());

  it("the doctor's reading is recorded once per quarter of an hour however often the call page polls it; the patient's own is not", async () => {
    const doctor = await spec.given.doctor();
    const patient = await spec.given.patient();
    const id = await heldAppointment(t, { doctor, patient, hour: 11, setNow: (at) => (now = at) });
    const view = async (who: TestUser) => (await spec.when((http) => http.get(`/api/v1/consultations/${id}`).set(who.auth))).expectStatus(200);
    /** The doctor's reading, recorded on their access log: the consultation, for care, naming its patient. */
    const expectRecorded = async () => {
      const read = (await view(doctor)).expectEvents([{ stream: streams.accessAudit(doctor.user_id), type: 'PersonalDataAccessed' }]);
      const access = read.written[0]!.data as Access;
      assert.deepEqual([access.route, access.purpose, access.resource, subjectIds(access)], ['GET /api/v1/consultations/:appointment_id', 'care', 'consultation', [patient.user_id]]);
    };

    // Six polls within a minute: one record.
    const later = (seconds: number) => (now = new Date(now.getTime() + seconds * 1000));
    await expectRecorded();
    later(5);
    for (let i = 1; i < 6; i += 1) {
      (await view(doctor)).expectNoEvents();
      later(5);
    }
    later(15 * 60);
    await expectRecorded(); // a quarter of an hour later: recorded again
    (await view(patient)).expectNoEvents(); // the patient reading their own consultation
  });
});
