import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startTestApp, type TestUser } from '../support/test-app';
import { heldAppointment } from '../support/held-appointment';
import { fileBytes } from '../support/file-traces';

/** The bytes of a SQLite file as they sit on disk: the file and its write-ahead log. */
/**
 * The bytes test for the end of the legal hold (issue 12 with issue 14's records): an erasure keeps a patient's
 * clinical records until their retention period ends; then their key is destroyed (ClinicalRecordsDestroyed) and the
 * read models blank them. Like an erasure, that must leave none of the values in the SQLite read store's files, its
 * write-ahead log included.
 */
describe('the end of the legal hold leaves no bytes of the clinical records', () => {
  it('not in the live read store file or its write-ahead log', async () => {
    let now = new Date();
    const t = await startTestApp({ clock: () => now, env: { READ_STORE: 'sqlite', CONSULTATION_SWEEP_INTERVAL_MS: '3600000' } });
    try {
      const doctor: TestUser = await t.createUser('doctor', { name: 'Dr. Retention Pillai' });
      const patient = await t.createUser('patient', { name: 'Held Patient' });
      const id = await heldAppointment(t, { doctor, patient, hour: 10, setNow: (d) => (now = d) });
      const values = ['Vertigo after a fall from the ladder', 'Suspected benign positional vertigo', 'Epley manoeuvre daily for a week'];
      await t.http
        .put(`/api/v1/consultations/${id}/notes`)
        .set(doctor.auth)
        .send({ is_draft: false, chief_complaint: values[0], clinical_assessment: values[1], treatment_plan: values[2] })
        .expect(200);
      await t.settle();
      await t.http.post('/api/v1/users/me/erasure').set(patient.auth).expect(200);
      await t.settle();
      assert.equal((await t.http.get(`/api/v1/consultations/${id}/notes`).set(doctor.auth).expect(200)).body.chief_complaint, values[0], 'kept under the legal hold');

      now = new Date(now.getTime() + (3 * 365 + 2) * 86_400_000);
      await t.app.runSweepsNow();
      await t.settle();
      assert.equal((await t.http.get(`/api/v1/consultations/${id}/notes`).set(doctor.auth).expect(200)).body.chief_complaint, '[erased]', 'blanked at the end of the hold');
      const bytes = fileBytes(t.dataDir, 'read-models.db');
      const found = values.filter((value) => bytes.indexOf(value) !== -1);
      assert.deepEqual(found, [], 'the read store file and its write-ahead log hold none of the destroyed values');
    } finally {
      await t.close();
    }
  });
});
