import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { indiaDate, startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { bookedAppointment, heldAppointment } from '../support/held-appointment';
import { accessesBy } from '../support/access-audit';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');

/**
 * Issue 12's access audit, over every read route the product declares (not a list kept by hand, so a route added
 * later is covered too): a doctor, an institution's admin, a platform admin and an unrelated doctor call each GET
 * route with every id that could name the patient's data; whenever an answer carries one of the patient's values
 * (name, phone, e-mail, reason for visit, chat, report, notes, file name), the caller's access-audit stream must have
 * grown by that request. And an answer that carries none of them while recording a read of the patient is a read on
 * the record that showed nothing.
 */
describe('access audit: every read route that shows a patient’s data records it', () => {
  let t: TestApp;
  let now = new Date();
  const P = {
    name: 'Qamar Coverage Siddiqui',
    phone: '+91 97777 12121',
    notes: 'Coverage rash on both forearms',
    chat: 'Coverage chat: itching at night',
    complaint: 'Coverage chief complaint',
    summary: 'Coverage report summary',
    fileName: 'qamar-coverage.pdf',
  };
  let values: string[];
  let callers: Array<[string, TestUser]>;
  let candidates: Record<string, string[]>;
  let patient: TestUser;

  before(async () => {
    t = await startTestApp({ clock: () => now, env: { CONSULTATION_SWEEP_INTERVAL_MS: '3600000' } });
    const operator = await t.createUser('admin');
    const created = await t.http
      .post('/api/v1/institutions/')
      .set(operator.auth)
      .send({ name: 'Coverage Clinic', slug: 'coverage-clinic', address: '3 Park Street', phone: '+91 33 4000 0002', email: 'desk@coverage.in', staff: [{ name: 'Asha Admin', email: 'asha@coverage.in', phone: '+91 93333 33331', account_type: 'ADMIN' }] })
      .expect(201);
    const institutionId = created.body.id as string;
    await t.settle();
    const staff = await t.signedIn('asha@coverage.in', 'patient');
    await t.http
      .post(`/api/v1/institutions/${institutionId}/doctors`)
      .set(staff.auth)
      .send({ name: 'Dr. Coverage Doc', email: 'doc@coverage.in', phone_number: '+91 90000 55555', specialty: 'Dermatology', qualification: 'MBBS', consultation_fee: 400 })
      .expect(201);
    await t.settle();
    const doctor = await t.signedIn('doc@coverage.in', 'doctor');
    const other = await t.createUser('doctor');
    patient = await t.createUser('patient', { name: P.name, phone_number: P.phone });
    const email = (await t.http.get('/api/v1/users/me').set(patient.auth).expect(200)).body.email as string;
    // One request left waiting (the doctor's pending list), one held (its consultation, chat and records).
    await bookedAppointment(t, { doctor, patient, hour: 15, setNow: (d) => (now = d), notes: P.notes, approve: false });
    const id = await heldAppointment(t, { doctor, patient, hour: 12, setNow: (d) => (now = d), notes: P.notes });
    await t.http.post(`/api/v1/consultations/${id}/join`).set(patient.auth).expect(200);
    await t.http.post(`/api/v1/consultations/${id}/messages`).set(patient.auth).send({ text: P.chat }).expect(201);
    const report = await t.http.post('/api/v1/records/reports').set(patient.auth).field('report_type', 'lab').field('report_date', indiaDate(0)).field('report_summary', P.summary).field('appointment_id', id).attach('files', PDF, P.fileName).expect(201);
    await t.http.put(`/api/v1/consultations/${id}/notes`).set(doctor.auth).send({ is_draft: false, patient_name: P.name, chief_complaint: P.complaint, treatment_plan: 'rest' }).expect(200);
    await t.settle();
    values = [...Object.values(P), email];
    callers = [['doctor', doctor], ['institution admin', staff], ['platform admin', operator], ['unrelated doctor', other]];
    candidates = {
      id: [id, institutionId, `${institutionId}~${patient.user_id}`, patient.user_id, report.body.report_id as string, report.body.files[0].file_id as string],
      appointment_id: [id],
      patient_id: [patient.user_id],
      user_id: [patient.user_id],
      doctor_id: [doctor.user_id],
    };
  });
  after(() => t.close());

  it('no answer carries the patient’s data off the record, and none records a read that showed nothing of them', async () => {
    // The development outbox stands in for people's own phones and mailboxes: showing what was sent to them is what it is
    // for. It exists only where no channel is configured, never in production (the configuration refuses that), and
    // answers only to this machine (messaging/routes.ts).
    const routes = t.app.routes.filter((r) => r.method === 'get' && r.path !== '/dev/outbox');
    assert.ok(routes.length > 30, `the product's read routes: ${routes.length}`);
    const unaudited: string[] = [];
    const emptyReads: string[] = [];
    let audited = 0;
    for (const [who, caller] of callers) {
      for (const route of routes) {
        let urls = [route.path];
        for (const [, name] of route.path.matchAll(/:([a-z_]+)/g)) urls = urls.flatMap((u) => (candidates[name!] ?? ['unknown']).map((c) => u.replace(`:${name}`, c)));
        for (const url of urls) {
          const before = await accessesBy(t, caller);
          const res = await t.http.get(`/api/v1${url}`).set(caller.auth);
          const answer = `${res.text ?? ''}${JSON.stringify(res.body)}${JSON.stringify(res.headers)}`;
          const shown = values.filter((v) => answer.includes(v));
          const recorded = (await accessesBy(t, caller)).slice(before.length);
          const ofPatient = recorded.filter((e) => e.subjects.some((s) => s.user_id === patient.user_id));
          if (shown.length > 0 && ofPatient.length === 0) unaudited.push(`${who} GET ${url} (${res.status}) showed ${shown.join(', ')}`);
          if (shown.length > 0 && ofPatient.length > 0) audited += 1;
          if (shown.length === 0 && ofPatient.length > 0) emptyReads.push(`${who} GET ${url} (${res.status})`);
        }
      }
    }
    assert.deepEqual(unaudited, [], 'every answer showing the patient’s data is on their access log');
    assert.deepEqual(emptyReads, [], 'no read of the patient is recorded for an answer that showed nothing of them');
    assert.ok(audited >= 8, `the check saw the patient's data in audited answers (${audited}): it can see a leak`);
  });
});
