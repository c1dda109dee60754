import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { personalDataExportSchema } from '@telemed/contracts';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { heldAppointment } from '../support/held-appointment';

/**
 * The export (right to access, issue 12) against what later issues added: a consultation's chat (issue 13, the
 * patient's health data) and a doctor's own posts (issue 16). Each is in the export of the person it belongs to,
 * and only theirs.
 */
describe('export: consultations with their chat, and a doctor\'s posts', () => {
  let t: TestApp;
  let now = new Date();
  let patient: TestUser;
  let doctor: TestUser;
  let stranger: TestUser;
  let appointmentId: string;
  let draftId: string;

  before(async () => {
    t = await startTestApp({ clock: () => now, env: { CONSULTATION_SWEEP_INTERVAL_MS: '3600000', SWEEP_INTERVAL_MS: '3600000' } });
    patient = await t.createUser('patient', { name: 'Nandini Export Rao' });
    doctor = await t.createUser('doctor', { name: 'Dr. Export Bhatt' });
    stranger = await t.createUser('patient');
    appointmentId = await heldAppointment(t, { doctor, patient, hour: 9, setNow: (d) => (now = d) });
    await t.http.post(`/api/v1/consultations/${appointmentId}/join`).set(patient.auth).expect(200);
    await t.http.post(`/api/v1/consultations/${appointmentId}/messages`).set(patient.auth).send({ text: 'The rash spread to my arms' }).expect(201);
    await t.http.post(`/api/v1/consultations/${appointmentId}/messages`).set(doctor.auth).send({ text: 'Any new soap or food?' }).expect(201);
    await t.settle();
    // The doctor reads the chat: on the patient's record of who saw it.
    await t.http.get(`/api/v1/consultations/${appointmentId}/messages`).set(doctor.auth).expect(200);
    const paragraph = { type: 'paragraph', data: { text: 'Draft about monsoon fevers, not yet public' } };
    const created = await t.http
      .post('/api/v1/blogs/')
      .set(doctor.auth)
      .send({ title: 'Monsoon fevers draft', description: null, content: { time: 1, version: '2.31.0', blocks: [paragraph] } })
      .expect(201);
    draftId = created.body.id as string;
    await t.settle();
  });
  after(() => t.close());

  const exportOf = async (who: TestUser) => personalDataExportSchema.parse((await t.http.get('/api/v1/users/me/export').set(who.auth).expect(200)).body);

  it("the patient's export holds their consultation with its whole chat and who read it", async () => {
    const data = await exportOf(patient);
    assert.equal(data.consultations.length, 1, 'one consultation');
    const [consultation] = data.consultations;
    assert.equal(consultation!.appointment_id, appointmentId);
    assert.equal(consultation!.as, 'patient');
    assert.ok(consultation!.started_at, 'when it started');
    assert.deepEqual(
      consultation!.messages.map((m) => [m.from, m.text]),
      [
        ['you', 'The rash spread to my arms'],
        ['doctor', 'Any new soap or food?'],
      ],
    );
    assert.deepEqual(consultation!.shared_with.map((s) => s.user_id), [doctor.user_id], 'the doctor read the chat');
    assert.deepEqual(data.blog_posts, [], 'a patient writes no posts');
  });

  it("the patient's export does not tell when their doctor saved a draft of the notes (the history route does not either)", async () => {
    await t.http.put(`/api/v1/consultations/${appointmentId}/notes`).set(doctor.auth).send({ is_draft: true, chief_complaint: 'Rash, first thoughts' }).expect(200);
    await t.settle();
    const history = (await t.http.get(`/api/v1/appointments/${appointmentId}/history`).set(patient.auth).expect(200)).body.events as Array<{ type: string }>;
    assert.ok(!history.some((e) => e.type === 'ConsultationNotesSaved'), 'the history route hides the draft from the patient');
    const exported = (await exportOf(patient)).appointments.find((a) => a.appointment_id === appointmentId)!;
    assert.deepEqual(exported.status_history.filter((h) => h.type === 'ConsultationNotesSaved'), [], "the export's history hides it too");
    const asDoctor = (await exportOf(doctor)).appointments.find((a) => a.appointment_id === appointmentId)!;
    assert.equal(asDoctor.status_history.filter((h) => h.type === 'ConsultationNotesSaved').length, 1, 'the doctor sees their own save');
  });

  it("the doctor's export holds the consultation's facts and their own posts (drafts too), not the patient's chat", async () => {
    const data = await exportOf(doctor);
    assert.equal(data.consultations.length, 1);
    assert.equal(data.consultations[0]!.as, 'doctor');
    assert.deepEqual(data.consultations[0]!.messages, [], "the chat is the patient's health data");
    assert.deepEqual(data.blog_posts.map((p) => [p.post_id, p.title, p.status]), [[draftId, 'Monsoon fevers draft', 'draft']]);
    assert.ok(JSON.stringify(data.blog_posts[0]!.content).includes('Draft about monsoon fevers'), "the post's text");
    const text = JSON.stringify(data);
    for (const foreign of ['The rash spread', 'Nandini', patient.user_id]) assert.ok(!text.includes(foreign), `the doctor's export holds ${foreign}`);
  });

  it('nobody else gets any of it', async () => {
    const data = await exportOf(stranger);
    assert.deepEqual([data.consultations, data.blog_posts], [[], []]);
    const text = JSON.stringify(data);
    for (const foreign of ['rash', 'soap', 'monsoon', appointmentId, draftId]) assert.ok(!text.includes(foreign), `a stranger's export holds ${foreign}`);
  });
});
