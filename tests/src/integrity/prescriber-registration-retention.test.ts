import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryReadStore } from '@telemed/platform';
import { ProjectionRunner, allProjections, readModelsChecksum } from '@telemed/query';
import { startTestApp } from '../support/test-app';
import { heldAppointment } from '../support/held-appointment';
import { fileBytes } from '../support/file-traces';

/** The bytes of a SQLite file as they sit on disk: the file and its write-ahead log. */
/**
 * A doctor's registration number names them (the council's register says whose it is), so their own copy goes with
 * their erasure. The copy printed on an e-prescription is part of the patient's clinical record, kept under the legal
 * hold: it must not outlive that record. It was written in clear into PrescriptionIssued, so after the doctor's
 * erasure and the end of the patient's hold it stayed in the event store (and the prescription and its public check)
 * for ever.
 */
describe("the prescriber's registration number on a prescription", () => {
  it('is ciphertext in the log, kept with the record during the hold, and gone with it when the hold ends', async () => {
    let now = new Date();
    const t = await startTestApp({ clock: () => now, env: { READ_STORE: 'sqlite', CONSULTATION_SWEEP_INTERVAL_MS: '3600000' } });
    try {
      const registration = 'KMC-RETAIN-40417';
      const doctor = await t.createUser('doctor', { name: 'Dr. Retained Rao', doctor: { registration_number: registration, medical_council: 'Karnataka Medical Council', qualification: 'MBBS' } });
      const patient = await t.createUser('patient', { name: 'Held Prescription Patient' });
      const id = await heldAppointment(t, { doctor, patient, hour: 11, setNow: (d) => (now = d) });
      const line = { medicine: 'Paracetamol', dosage: '1 tablet', frequency: 'twice_daily', duration_value: 3, duration_unit: 'days' };
      const issued = await t.http.post(`/api/v1/consultations/${id}/prescriptions`).set(doctor.auth).send({ diagnosis: 'Viral fever', lines: [line] }).expect(201);
      // Read once the read models hold it (the SQLite store commits on its writer thread, a turn after the answer).
      await t.settle();
      const prescription = (await t.http.get(`/api/v1/prescriptions/${issued.body.prescription_id}`).set(patient.auth).expect(200)).body;
      const code = new URL(prescription.verification_url).pathname.split('/').at(-1)!;
      assert.equal(fileBytes(t.dataDir, 'events.db').indexOf(registration), -1, 'the log holds the printed registration number as ciphertext only');

      await t.http.post('/api/v1/users/me/erasure').set(doctor.auth).expect(200);
      await t.http.post('/api/v1/users/me/erasure').set(patient.auth).expect(200);
      await t.settle();
      const during = (await t.http.get(`/api/v1/verify/${code}`).expect(200)).body;
      assert.equal(during.doctor.registration_number, registration, 'kept with the prescription under the legal hold');

      now = new Date(now.getTime() + (3 * 365 + 2) * 86_400_000);
      await t.app.runSweepsNow();
      await t.settle();
      const after = (await t.http.get(`/api/v1/verify/${code}`).expect(200)).body;
      assert.equal(after.genuine, true, 'the public check still says it was genuine');
      assert.equal(after.doctor.registration_number, '[erased]');
      const places = { 'the event store': fileBytes(t.dataDir, 'events.db'), 'the read store': fileBytes(t.dataDir, 'read-models.db') };
      assert.deepEqual(Object.entries(places).filter(([, bytes]) => bytes.indexOf(registration) !== -1).map(([place]) => place), [], 'no copy outlives the hold');

      const rebuilt = new MemoryReadStore();
      await new ProjectionRunner({ eventStore: t.app.eventStore, readStore: rebuilt, projections: allProjections }).catchUp();
      assert.equal(await readModelsChecksum(rebuilt, allProjections), await readModelsChecksum(t.app.readStore, allProjections), 'a rebuild from position 0 equals the live read models');
    } finally {
      await t.close();
    }
  });
});
