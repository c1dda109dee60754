import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { personalDataExportSchema } from '@telemed/contracts';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { heldAppointment } from '../support/held-appointment';

/**
 * A consultation's `shared_with` in the patient's export (issue 12) lists everyone who read it: the doctor opening the
 * consultation (its state names the patient; audited under resource 'consultation'), not only readers of its chat.
 */
describe("export: a consultation's readers include those who opened it, not only those who read its chat", () => {
  let t: TestApp;
  let now = new Date();
  let patient: TestUser;
  let doctor: TestUser;
  let appointmentId: string;

  before(async () => {
    t = await startTestApp({ clock: () => now, env: { CONSULTATION_SWEEP_INTERVAL_MS: '3600000', SWEEP_INTERVAL_MS: '3600000' } });
    patient = await t.createUser('patient');
    doctor = await t.createUser('doctor');
    appointmentId = await heldAppointment(t, { doctor, patient, hour: 10, setNow: (d) => (now = d) });
  });
  after(() => t.close());

  it("the doctor who opened the consultation (and read no chat) is in its shared_with", async () => {
    await t.http.get(`/api/v1/consultations/${appointmentId}`).set(doctor.auth).expect(200);
    await t.settle();
    const data = personalDataExportSchema.parse((await t.http.get('/api/v1/users/me/export').set(patient.auth).expect(200)).body);
    const consultation = data.consultations.find((c) => c.appointment_id === appointmentId);
    assert.ok(consultation, 'the consultation is in the export');
    assert.deepEqual(
      consultation.shared_with.map((s) => [s.user_id, s.purpose]),
      [[doctor.user_id, 'care']],
      'the consultation view is listed',
    );
  });
});
