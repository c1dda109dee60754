import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { PDFParse } from 'pdf-parse';
import { streams } from '@telemed/contracts';
import { ciphertextLog, isCiphertext, MemoryReadStore, type ReadStore } from '@telemed/platform';
import { ProjectionRunner, allProjections } from '@telemed/query';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { apiSpec, type ApiSpec } from '../support/api-spec';
import { moreGiven, type MoreGiven } from '../support/api-spec-extra';
import { binaryBody } from '../support/binary-body';

type Issued = { consultation_mode: unknown; consultation_kind: unknown };

/**
 * A prescription's consultation mode and kind (a video visit, a first visit or a follow-up) are health data about the
 * patient like its diagnosis: ciphertext in the log under the patient's clinical key, read in clear by the patient and
 * the doctor (JSON and PDF), kept through an erasure for the retention period and unreadable after it. A prescription
 * recorded before they were encrypted (the values in clear) still reads.
 */
describe("e-prescriptions: the consultation's mode and kind in the log", () => {
  let t: TestApp;
  let spec: ApiSpec;
  let more: MoreGiven;
  let now = new Date();

  before(async () => {
    t = await startTestApp({ clock: () => now, env: { CONSULTATION_SWEEP_INTERVAL_MS: '3600000' } });
    spec = apiSpec(t);
    more = moreGiven(spec);
  });
  after(() => t.close());

  const givenDoctor = () => spec.given.doctor({ name: 'Dr. Meera Iyer', doctor: { registration_number: 'TNMC-7', medical_council: 'Tamil Nadu Medical Council', qualification: 'MBBS' } });
  /** Given a confirmed appointment of `patient` with `doctor` two days ahead, its consultation joined (the clock moves to its start). */
  const appointment = async (doctor: TestUser, patient: TestUser) => (await more.consultation({ doctor, patient, setNow: (d) => (now = d) })).appointment_id;
  /** When the doctor prescribes in the consultation: the prescription issued, its only event. */
  async function prescribe(doctor: TestUser, patient: TestUser, appointmentId: string): Promise<string> {
    const paracetamol = (await spec.read((http) => http.get('/api/v1/medicines/search?q=paracetamol').set(doctor.auth).expect(200))).body[0];
    const line = { medicine: 'Paracetamol', medicine_id: paracetamol.id, strength: paracetamol.strengths[0], dosage: '1 tablet', frequency: 'twice_daily', duration_value: 3, duration_unit: 'days' };
    const issued = (await spec.when((http) => http.post(`/api/v1/consultations/${appointmentId}/prescriptions`).set(doctor.auth).send({ lines: [line], diagnosis: 'Bronchitis' }))).expectStatus(201);
    const pid = issued.body.prescription_id as string;
    issued.expectEvents([{ stream: streams.prescription(pid), type: 'PrescriptionIssued', data: { appointment_id: appointmentId, patient_id: patient.user_id } }]).expectReactions([]);
    return pid;
  }
  const rawIssued = async (pid: string) =>
    (await ciphertextLog(t.app.eventStore).readStream(streams.prescription(pid))).filter((e) => e.type === 'PrescriptionIssued').map((e) => e.data as Issued);
  const json = async (pid: string, who: TestUser) => (await spec.read((http) => http.get(`/api/v1/prescriptions/${pid}`).set(who.auth).expect(200))).body as Issued;
  async function pdfText(pid: string, who: TestUser): Promise<string> {
    const pdf = await spec.read((http) => http.get(`/api/v1/prescriptions/${pid}/pdf`).set(who.auth).buffer(true).parse(binaryBody).expect(200));
    return (await new PDFParse({ data: new Uint8Array(pdf.body as Buffer) }).getText()).text;
  }
  const prescriptionsIn = async (store: ReadStore, patientId: string) =>
    (await store.collection<{ _id: string; patient_id: string }>('prescriptions').find({ patient_id: patientId })).sort((a, b) => a._id.localeCompare(b._id));

  it('are ciphertext in the log, and read in clear by the patient and the doctor (JSON and PDF)', async () => {
    const doctor = await givenDoctor();
    const patient = await spec.given.patient({ name: 'Arjun Das' });
    const first = await prescribe(doctor, patient, await appointment(doctor, patient));
    const followUp = await prescribe(doctor, patient, await appointment(doctor, patient));
    for (const pid of [first, followUp]) {
      const [stored] = await rawIssued(pid);
      assert.ok(stored, 'the prescription is in the log');
      for (const field of ['consultation_mode', 'consultation_kind'] as const) assert.ok(isCiphertext(stored[field]), `${field} is ciphertext: ${JSON.stringify(stored[field])}`);
      // As values (`follow_up` is also the name of the prescription's follow-up advice field).
      const bytes = JSON.stringify(stored);
      for (const clear of [':"video"', ':"first"', ':"follow_up"']) assert.ok(!bytes.includes(clear), `the stored event holds ${clear} in clear`);
    }
    for (const who of [patient, doctor]) {
      assert.deepEqual(await json(first, who), { ...(await json(first, who)), consultation_mode: 'video', consultation_kind: 'first' }, 'the first visit');
      assert.deepEqual(await json(followUp, who), { ...(await json(followUp, who)), consultation_mode: 'video', consultation_kind: 'follow_up' }, 'the follow-up');
      assert.ok((await pdfText(first, who)).includes('Consultation: video teleconsultation, first consultation'), 'the PDF of the first visit');
      assert.ok((await pdfText(followUp, who)).includes('Consultation: video teleconsultation, follow-up'), 'the PDF of the follow-up');
    }
  });

  it('a prescription recorded before they were encrypted (in clear) still reads, in the JSON and the PDF', async () => {
    const doctor = await givenDoctor();
    const patient = await spec.given.patient({ name: 'Lakshmi Menon' });
    const appointmentId = await appointment(doctor, patient);
    const pid = randomUUID();
    const metadata = { actor: { user_id: doctor.user_id, role: 'doctor' }, correlation_id: randomUUID(), causation_id: null, occurred_at: now.toISOString() };
    // The event as the product wrote it before: the mode and kind in clear (the rest as the handler encrypts it).
    const clearBefore = { consultation_mode: 'video', consultation_kind: 'follow_up' };
    const lines = JSON.stringify([{ medicine_id: null, medicine: 'Cetirizine', generic_name: 'Cetirizine', strength: '10 mg', dosage_form: 'Tablet', tpg_list: 'O', dosage: '1 tablet', frequency: 'once_daily', custom_schedule: null, duration_value: 5, duration_unit: 'days', instructions: null }]);
    const data = {
      prescription_id: pid,
      appointment_id: appointmentId,
      patient_id: patient.user_id,
      doctor_id: doctor.user_id,
      verification_code: randomUUID(),
      doctor_name: 'Dr. Meera Iyer',
      doctor_qualification: 'MBBS',
      doctor_registration_number: 'TNMC-7',
      doctor_medical_council: 'Tamil Nadu Medical Council',
      doctor_contact: null,
      patient_name: 'Lakshmi Menon',
      patient_age: null,
      patient_gender: null,
      diagnosis: 'Allergic rhinitis',
      advice: null,
      follow_up: null,
      lines,
    };
    const encrypted = t.app.eventStore;
    await encrypted.appendToStream(streams.prescription(pid), [{ event_id: randomUUID(), type: 'PrescriptionIssued', data: { ...data, consultation_mode: 'placeholder', consultation_kind: 'placeholder' }, metadata }]);
    // Written through the handler the mode and kind would be ciphertext: put the old event's clear values in a stream of its own.
    const oldPid = randomUUID();
    await ciphertextLog(encrypted).appendToStream(streams.prescription(oldPid), [
      { event_id: randomUUID(), type: 'PrescriptionIssued', data: { ...(await rawIssued(pid))[0], prescription_id: oldPid, verification_code: randomUUID(), ...clearBefore }, metadata },
    ]);
    assert.deepEqual(
      (await rawIssued(oldPid)).map((d) => [d.consultation_mode, d.consultation_kind]),
      [['video', 'follow_up']],
      'the old event holds them in clear',
    );
    for (const who of [patient, doctor]) {
      assert.deepEqual(await json(oldPid, who), { ...(await json(oldPid, who)), ...clearBefore }, 'reads as written');
      assert.ok((await pdfText(oldPid, who)).includes('Consultation: video teleconsultation, follow-up'), 'the PDF says it');
    }
  });

  it('an erasure keeps them for the retention period; after it they no longer read, the same live and after a rebuild', async () => {
    const doctor = await givenDoctor();
    const patient = await spec.given.patient({ name: 'Farah Khan' });
    const pid = await prescribe(doctor, patient, await appointment(doctor, patient));
    now = new Date(now.getTime() + 3 * 3600_000);
    (await spec.when((http) => http.post('/api/v1/users/me/erasure').set(patient.auth)))
      .expectStatus(200)
      .expectEvents([{ stream: streams.user(patient.user_id), type: 'PersonalDataErased' }])
      .expectReactions([]);
    assert.deepEqual(await json(pid, doctor), { ...(await json(pid, doctor)), consultation_mode: 'video', consultation_kind: 'first' }, 'kept under the legal hold');
    const saved = now;
    now = new Date(saved.getTime() + (3 * 365 + 2) * 86_400_000);
    try {
      await t.app.runSweepsNow();
      const ended = await json(pid, doctor);
      assert.deepEqual([ended.consultation_mode, ended.consultation_kind], [null, null], 'unreadable once the clinical key is destroyed');
      assert.ok((await pdfText(pid, doctor)).includes('Consultation: teleconsultation (mode no longer readable), no longer readable'), 'the PDF says so');
      const rebuilt = new MemoryReadStore();
      await new ProjectionRunner({ eventStore: t.app.eventStore, readStore: rebuilt, projections: allProjections }).catchUp();
      assert.deepEqual(await prescriptionsIn(rebuilt, patient.user_id), await prescriptionsIn(t.app.readStore, patient.user_id), 'a rebuild reads them as the live read model blanked them');
    } finally {
      now = saved;
    }
  });
});
