import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rmSync } from 'node:fs';
import { ERASED_VALUE } from '@telemed/contracts';
import { indiaDate, startTestApp } from '../support/test-app';
import { fileBytes, traces } from '../support/file-traces';
import { heldAppointment } from '../support/held-appointment';

/**
 * A visit's reason and a rejection's or cancellation's reason are kept sealed in the read models (contracts'
 * sealedInReadModels): the read store's file holds only their ciphertext, while every route serves them in clear to
 * whoever may read them, and as erased once their person's key is destroyed.
 */
describe('health text kept sealed in the read models', () => {
  it('is not in the read store file, is served in clear by the lists, the history and the export, and as erased after an erasure', async () => {
    const t = await startTestApp({ env: { READ_STORE: 'sqlite' } });
    try {
      const doctor = await t.createUser('doctor', { name: 'Dr. Meera Pillai' });
      const patient = await t.createUser('patient', { name: 'Kabir Sethi' });
      const slots = await t.openSlots(doctor, ['10:00', '10:30'].map((time) => ({ date: indiaDate(4), time })));
      const text = { notes: 'Wheezing at night since Diwali', rejected: 'Please see a pulmonologist', cancelled: 'Feeling better now' };
      const first = await t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: slots[0], notes: text.notes }).expect(201);
      const second = await t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: slots[1], notes: text.notes }).expect(201);
      await t.http.post(`/api/v1/appointments/${first.body.appointment_id}/reject`).set(doctor.auth).send({ reason: text.rejected }).expect(200);
      await t.http.post(`/api/v1/appointments/${second.body.appointment_id}/cancel`).set(patient.auth).send({ reason: text.cancelled }).expect(200);
      await t.settle();

      const readModels = () => fileBytes(t.dataDir, 'read-models.db');
      assert.deepEqual(traces(Object.values(text), { 'the read store file': readModels() }), []);
      assert.notEqual(readModels().indexOf('Kabir Sethi'), -1, 'a name is kept opened (lists search and sort by it)');

      const mine = (await t.http.get('/api/v1/appointments/me?status=requested,confirmed,rejected,cancelled').set(patient.auth).expect(200)).body as Array<Record<string, unknown>>;
      const byId = new Map(mine.map((a) => [a.appointment_id, a]));
      assert.equal(byId.get(first.body.appointment_id)!.notes, text.notes);
      assert.equal(byId.get(first.body.appointment_id)!.rejection_reason, text.rejected);
      assert.equal(byId.get(second.body.appointment_id)!.cancellation_reason, text.cancelled);
      const doctors = (await t.http.get('/api/v1/appointments/me?status=requested,confirmed,rejected,cancelled').set(doctor.auth).expect(200)).body as Array<Record<string, unknown>>;
      assert.deepEqual(doctors.map((a) => a.notes), [text.notes, text.notes]);
      const history = (await t.http.get(`/api/v1/appointments/${first.body.appointment_id}/history`).set(doctor.auth).expect(200)).body as {
        events: Array<{ type: string; data: Record<string, unknown> }>;
      };
      assert.equal(history.events.find((e) => e.type === 'AppointmentRequested')!.data.notes, text.notes);
      assert.equal(history.events.find((e) => e.type === 'AppointmentRejected')!.data.reason, text.rejected);
      const exported = JSON.stringify((await t.http.get('/api/v1/users/me/export').set(patient.auth).expect(200)).body);
      for (const value of Object.values(text)) assert.ok(exported.includes(value), `the export gives "${value}"`);
      assert.ok(!/"enc1\./.test(exported), 'no ciphertext is served');

      await t.http.post('/api/v1/users/me/erasure').set(patient.auth).expect(200);
      await t.settle();
      const after = (await t.http.get('/api/v1/appointments/me?status=requested,confirmed,rejected,cancelled').set(doctor.auth).expect(200)).body as Array<Record<string, unknown>>;
      assert.deepEqual(after.map((a) => a.notes), [ERASED_VALUE, ERASED_VALUE]);
      const erasedHistory = JSON.stringify((await t.http.get(`/api/v1/appointments/${first.body.appointment_id}/history`).set(doctor.auth).expect(200)).body);
      assert.deepEqual(traces(Object.values(text), { history: Buffer.from(erasedHistory) }), []);
      assert.ok(!erasedHistory.includes('enc1.'), 'no ciphertext is served');
    } finally {
      await t.app.stop();
      rmSync(t.dataDir, { recursive: true, force: true });
    }
  });

  it("keeps a consultation's notes, an e-prescription's and a report's free text, whom they are about, a report's particulars and a file's name sealed too, and serves them in clear", async () => {
    let now = new Date();
    const t = await startTestApp({ clock: () => now, env: { READ_STORE: 'sqlite', CONSULTATION_SWEEP_INTERVAL_MS: '3600000' } });
    try {
      const doctor = await t.createUser('doctor', { name: 'Dr. Sealed Notes', doctor: { registration_number: 'KMC-2015-1234', medical_council: 'Karnataka Medical Council' } });
      const patient = await t.createUser('patient', { name: 'Rohan Sealed' });
      const id = await heldAppointment(t, { doctor, patient, hour: 11, setNow: (d) => (now = d) });
      const text = { chief_complaint: 'Stabbing pain under the ribs', clinical_assessment: 'Probable costochondritis', treatment_plan: 'Warm compress twice daily' };
      // Whom the records are about, as the doctor wrote it on them: sealed too (the account's name stays opened for lists).
      const about = { notes_name: 'Rohan Sealed-Notes-Name', notes_ref: 'MRN-SEALED-7731', file_name: 'Rohan Sealed-Rx-Name', file_ref: 'RXREF-SEALED-4410' };
      const saved = await t.http.put(`/api/v1/consultations/${id}/notes`).set(doctor.auth).send({ is_draft: false, patient_name: about.notes_name, patient_id: about.notes_ref, ...text });
      assert.equal(saved.status, 200, JSON.stringify(saved.body));
      const rx = await t.http
        .post(`/api/v1/consultations/${id}/prescription-files`)
        .set(doctor.auth)
        .field('patient_name', about.file_name)
        .field('patient_id', about.file_ref)
        .attach('file', Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n'), 'rx.pdf');
      assert.equal(rx.status, 201, JSON.stringify(rx.body));
      const prescribed = { diagnosis: 'Costochondral inflammation', advice: 'Avoid lifting for a fortnight' };
      const search = (await t.http.get('/api/v1/medicines/search?q=parac').set(doctor.auth).expect(200)).body as Array<{ id: string; dosage_form: string; strengths: string[] }>;
      const paracetamol = search.find((m) => m.dosage_form === 'Tablet')!;
      const line = { medicine: 'Paracetamol', medicine_id: paracetamol.id, strength: paracetamol.strengths[0], dosage: '1 tablet', frequency: 'twice_daily', duration_value: 5, duration_unit: 'days' };
      const issued = await t.http.post(`/api/v1/consultations/${id}/prescriptions`).set(doctor.auth).send({ lines: [line], ...prescribed }).expect(201);
      const report = { report_summary: 'Chest X-ray shows no fracture', additional_notes: 'Taken at the district hospital', medical_facility: 'Sealed Valley Diagnostics', doctor_name: 'Dr Radiologist Sealed' };
      const upload = t.http.post('/api/v1/records/reports').set(patient.auth);
      for (const [field, value] of Object.entries({ report_type: 'lab', report_date: indiaDate(0), ...report })) void upload.field(field, value);
      await upload.attach('files', Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n'), 'xray-of-the-sealed-ribs.pdf').expect(201);
      await t.settle();
      const texts = { ...text, ...prescribed, ...report, ...about, stored_file: 'xray-of-the-sealed-ribs' };
      assert.deepEqual(traces(Object.values(texts), { 'the read store file': fileBytes(t.dataDir, 'read-models.db') }), []);
      const prescription = (await t.http.get(`/api/v1/prescriptions/${issued.body.prescription_id}`).set(patient.auth).expect(200)).body as Record<string, unknown>;
      for (const [field, value] of Object.entries(prescribed)) assert.equal(prescription[field], value);
      const records = JSON.stringify((await t.http.get('/api/v1/records/me').set(patient.auth).expect(200)).body);
      for (const value of [...Object.values(report), about.file_name, about.file_ref, 'xray-of-the-sealed-ribs']) assert.ok(records.includes(value), `the patient's records give "${value}"`);
      assert.ok(!records.includes('enc1.'), 'no ciphertext is served');
      for (const reader of [doctor, patient]) {
        const notes = (await t.http.get(`/api/v1/consultations/${id}/notes`).set(reader.auth).expect(200)).body as Record<string, unknown>;
        for (const [field, value] of Object.entries({ ...text, patient_name: about.notes_name, patient_ref: about.notes_ref })) assert.equal(notes[field], value);
      }
      const exported = JSON.stringify((await t.http.get('/api/v1/users/me/export').set(patient.auth).expect(200)).body);
      for (const value of Object.values(texts)) assert.ok(exported.includes(value), `the export gives "${value}"`);
    } finally {
      await t.app.stop();
      rmSync(t.dataDir, { recursive: true, force: true });
    }
  });
});
