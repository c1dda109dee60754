import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DateTime } from 'luxon';
import { PDFParse } from 'pdf-parse';
import { API_TEXTS, DEFAULT_TIMEZONE, RECORD_TEXTS, streams } from '@telemed/contracts';
import { indiaDate, startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { apiSpec, type ApiSpec, type ExpectedEvent } from '../support/api-spec';
import { moreGiven, prescriptionFileUploaded, reportUploaded, type MoreGiven } from '../support/api-spec-extra';
import { binaryBody } from '../support/binary-body';
import { freePort } from '../support/processes';
import { minimalDoc, minimalDocx, minimalXls, minimalXlsx, plainZip } from '../support/office-files';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');
const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex'), Buffer.alloc(64)]);
const EXE = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(58), Buffer.from([0x80, 0, 0, 0]), Buffer.alloc(64), Buffer.from('PE\0\0'), Buffer.alloc(200)]);
const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const DICOM = Buffer.concat([Buffer.alloc(128), Buffer.from('DICM'), Buffer.from('02000000554c0400', 'hex'), Buffer.alloc(64)]);

describe('clinical records API (issue 14)', () => {
  let t: TestApp;
  let spec: ApiSpec;
  let more: MoreGiven;
  let now = new Date();
  let port = 0;

  before(async () => {
    port = await freePort();
    t = await startTestApp({ clock: () => now, env: { CONSULTATION_SWEEP_INTERVAL_MS: '3600000', PORT: String(port), PUBLIC_URL: 'https://telemed.example.in' } });
    await t.app.listen(port, '127.0.0.1');
    spec = apiSpec(t);
    more = moreGiven(spec);
  });
  after(() => t.close());

  /** Given a registered doctor (their registration printed on prescriptions) and a patient of this case. */
  const people = async (patientName = 'Ravi Kumar') => ({
    doctor: await spec.given.doctor({ name: 'Dr. अनीता शर्मा', doctor: { registration_number: 'MMC-2011-04567', medical_council: 'Maharashtra Medical Council', qualification: 'MBBS, MD' } }),
    patient: await spec.given.patient({ name: patientName }),
  });
  /** Given a confirmed appointment two days ahead; `held` joins its consultation (the clock moves to its start). */
  const appointment = async (doctor: TestUser, patient: TestUser, held = true): Promise<string> => {
    if (held) return (await more.consultation({ doctor, patient, notes: 'Fever', setNow: (d) => (now = d) })).appointment_id;
    now = new Date();
    return (await spec.given.appointment({ doctor, patient, notes: 'Fever', confirmed: true })).appointment_id;
  };
  const notesSaved = (id: string, is_draft: boolean): ExpectedEvent[] => [{ stream: streams.consultationNotes(id), type: 'ConsultationNotesSaved', data: { is_draft } }];
  /** Final notes saying a follow-up is required offer one, the first time with the defaults (issue 35: follow-ups). */
  const followUpOffered = (id: string): ExpectedEvent => ({ stream: streams.appointment(id), type: 'AppointmentFollowUpOffered', data: { within_days: 7, fee: 0 } });
  const read = (request: Parameters<ApiSpec['read']>[0]) => spec.read(request);

  const line = (medicine: string, extra: Record<string, unknown> = {}) => ({ medicine, dosage: '1 tablet', frequency: 'twice_daily', duration_value: 5, duration_unit: 'days', ...extra });

  it('notes: only the doctor writes; Save as Draft and Save Notes rules; the patient reads final notes only', async () => {
    const { doctor, patient } = await people();
    const otherDoctor = await spec.given.doctor();
    const otherPatient = await spec.given.patient();
    const id = await appointment(doctor, patient);
    const url = `/api/v1/consultations/${id}/notes`;
    const save = (who: TestUser, body: object) => spec.when((http) => http.put(url).set(who.auth).send(body));
    (await save(patient, { is_draft: true, chief_complaint: 'x' })).expectStatus(403).expectNoEvents();
    (await save(otherDoctor, { is_draft: true, chief_complaint: 'x' })).expectStatus(404).expectNoEvents();
    assert.equal((await save(doctor, { is_draft: true })).expectStatus(422).expectNoEvents().body.detail, RECORD_TEXTS.notesDraftEmpty);
    assert.equal((await save(doctor, { is_draft: false, patient_name: 'Ravi', treatment_plan: 'rest' })).expectStatus(422).expectNoEvents().body.detail, RECORD_TEXTS.notesFinalIncomplete);
    // Nothing saved yet: an ordinary answer (200, null) to the appointment's doctor and patient; 404 to anyone else.
    for (const who of [doctor, patient]) {
      const none = await read((http) => http.get(url).set(who.auth).expect(200));
      assert.equal(none.body, null);
      assert.equal(none.headers['cache-control'], 'private, no-store');
    }
    for (const stranger of [otherDoctor, otherPatient]) assert.equal((await read((http) => http.get(url).set(stranger.auth).expect(404))).body.detail, API_TEXTS.appointmentNotFound);
    assert.equal((await read((http) => http.get('/api/v1/consultations/no-such-appointment/notes').set(patient.auth).expect(404))).body.detail, API_TEXTS.appointmentNotFound);
    (await save(doctor, { is_draft: true, clinical_assessment: 'Viral fever, draft' })).expectStatus(200).expectEvents(notesSaved(id, true));
    assert.equal((await read((http) => http.get(url).set(patient.auth).expect(200))).body, null, 'a draft alone is no notes to the patient (the same answer as none)');
    assert.equal((await read((http) => http.get(url).set(doctor.auth).expect(200))).body.is_draft, true);
    (await save(doctor, { is_draft: false, patient_name: 'Ravi Kumar', chief_complaint: 'Fever for 3 days', priority_level: 'high', follow_up_required: 'routine', template: 'general_consultation' }))
      .expectStatus(200)
      .expectEvents([...notesSaved(id, false), followUpOffered(id)]);
    (await save(doctor, { is_draft: true, chief_complaint: 'Fever for 3 days', clinical_assessment: 'second thoughts' })).expectStatus(200).expectEvents(notesSaved(id, true));
    const seen = (await read((http) => http.get(url).set(patient.auth).expect(200))).body;
    assert.equal(seen.is_draft, false);
    assert.equal(seen.chief_complaint, 'Fever for 3 days');
    assert.equal(seen.clinical_assessment, 'Viral fever, draft', 'the final save left the assessment out: the earlier draft\'s is kept (merged)');
    assert.notEqual(seen.clinical_assessment, 'second thoughts', 'never the later draft');
    assert.equal((await read((http) => http.get(url).set(doctor.auth).expect(200))).body.clinical_assessment, 'second thoughts');
    const stored = (await t.app.eventStore.log.readStream(streams.consultationNotes(id))).map((e) => JSON.stringify(e.data)).join();
    assert.ok(!stored.includes('Fever for 3 days'), 'the log holds ciphertext only');
    for (const choice of ['"high"', '"routine"', '"general_consultation"', '"medium"', '"no"']) {
      assert.ok(!stored.includes(choice), `priority, follow-up and template are ciphertext too (${choice})`);
    }
    const saves = async (who: { auth: Record<string, string> }) =>
      ((await read((http) => http.get(`/api/v1/appointments/${id}/history`).set(who.auth).expect(200))).body.events as Array<{ type: string; data: { is_draft?: boolean } }>)
        .filter((e) => e.type === 'ConsultationNotesSaved')
        .map((e) => e.data.is_draft);
    assert.deepEqual(await saves(doctor), [true, false, true], "the doctor's history shows each save");
    assert.deepEqual(await saves(patient), [false], "the patient's shows the final save only, never when a draft was saved");
    assert.equal(seen.priority_level, 'high');
    assert.equal(seen.follow_up_required, 'routine');
    assert.equal(seen.template, 'general_consultation');
  });

  it("notes saves merge: the in-call panel's save after the modal's keeps the modal's fields; explicit null or blank clears", async () => {
    const { doctor, patient } = await people();
    const id = await appointment(doctor, patient);
    const url = `/api/v1/consultations/${id}/notes`;
    const save = (body: object) => spec.when((http) => http.put(url).set(doctor.auth).send(body));
    const modal = {
      patient_name: 'Ravi K. Sharma', patient_id: 'OPD-118', chief_complaint: 'Fever for 3 days', clinical_assessment: 'Viral fever', treatment_plan: 'Paracetamol, fluids',
      follow_up_instructions: 'Review in 3 days', additional_notes: 'Lives alone', priority_level: 'high', follow_up_required: 'routine', template: 'general_consultation', is_draft: false,
    };
    (await save(modal)).expectStatus(200).expectEvents([...notesSaved(id, false), followUpOffered(id)]);
    // What CallRecordsPanel sends: its text as the clinical assessment, final, and nothing else. The name the modal
    // wrote (not the account's 'Ravi Kumar') stays.
    (await save({ clinical_assessment: 'No red flags; fluids and rest.' })).expectStatus(200).expectEvents(notesSaved(id, false));
    const { patient_id: _ref, is_draft: _draft, ...kept } = modal;
    const notes = async (who: TestUser) => (await read((http) => http.get(url).set(who.auth).expect(200))).body;
    assert.deepEqual(await notes(patient), { ...(await notes(patient)), ...kept, patient_ref: 'OPD-118', clinical_assessment: 'No red flags; fluids and rest.', is_draft: false }, "the modal's fields kept, the panel's text in");
    // Explicit null or blank clears; what is left out stays; the rules hold for the merged notes.
    (await save({ additional_notes: null, follow_up_instructions: '  ', is_draft: true })).expectStatus(200).expectEvents(notesSaved(id, true));
    const draft = await notes(doctor);
    assert.deepEqual([draft.additional_notes, draft.follow_up_instructions, draft.treatment_plan, draft.priority_level, draft.is_draft], [null, null, 'Paracetamol, fluids', 'high', true]);
    assert.equal((await notes(patient)).additional_notes, 'Lives alone', 'the patient still reads the final notes');
    assert.equal((await save({ chief_complaint: null, clinical_assessment: '', is_draft: false })).expectStatus(422).expectNoEvents().body.detail, RECORD_TEXTS.notesFinalIncomplete);
    (await save({ is_draft: false })).expectStatus(200).expectEvents(notesSaved(id, false));
  });

  it("the in-call panel's save before any modal save names the patient by their account; the modal's name then replaces it and the panel's next save keeps that; it never turns a draft final", async () => {
    const { doctor, patient } = await people();
    const id = await appointment(doctor, patient);
    const url = `/api/v1/consultations/${id}/notes`;
    const save = (body: object) => spec.when((http) => http.put(url).set(doctor.auth).send(body));
    assert.equal((await save({ clinical_assessment: 'Viral fever' })).expectStatus(200).expectEvents(notesSaved(id, false)).body.is_draft, false);
    const notes = async () => (await read((http) => http.get(url).set(patient.auth).expect(200))).body;
    assert.deepEqual([(await notes()).patient_name, (await notes()).is_draft], ['Ravi Kumar', false], 'final, under the name on the account');
    (await save({ patient_name: 'Ravi K. Sharma', is_draft: false })).expectStatus(200).expectEvents(notesSaved(id, false));
    (await save({ clinical_assessment: 'Better today' })).expectStatus(200).expectEvents(notesSaved(id, false));
    assert.deepEqual([(await notes()).patient_name, (await notes()).clinical_assessment], ['Ravi K. Sharma', 'Better today']);
    // A draft from the modal (a plan the doctor has not settled), then the panel's text: still a draft, so neither the
    // plan nor the new text reaches the patient until Save Notes.
    (await save({ treatment_plan: 'Unsettled: antibiotics?', is_draft: true })).expectStatus(200).expectEvents(notesSaved(id, true));
    assert.equal((await save({ clinical_assessment: 'Worse tonight' })).expectStatus(200).expectEvents(notesSaved(id, true)).body.is_draft, true);
    const seen = await notes();
    assert.deepEqual([seen.treatment_plan, seen.clinical_assessment, seen.is_draft], [null, 'Better today', false]);
    const own = (await read((http) => http.get(url).set(doctor.auth).expect(200))).body;
    assert.deepEqual([own.treatment_plan, own.clinical_assessment, own.is_draft], ['Unsettled: antibiotics?', 'Worse tonight', true]);
    // A save that clears the name on purpose is not refilled.
    assert.equal((await save({ patient_name: null, clinical_assessment: 'x', is_draft: false })).expectStatus(422).expectNoEvents().body.detail, RECORD_TEXTS.notesFinalIncomplete);
  });

  it('e-prescriptions: rules of the Guidelines, the JSON, the PDF text and the public verification', async () => {
    const { doctor, patient: newPatient } = await people('रवि कुमार');
    const patient = await spec.given.patient({ name: 'Ravi Kumar' });
    const otherDoctor = await spec.given.doctor();
    const otherPatient = await spec.given.patient();
    const unregistered = await spec.given.doctor({ name: 'Dr. No Registration' });
    const id = await appointment(doctor, newPatient);
    const url = `/api/v1/consultations/${id}/prescriptions`;
    const prescribe = (who: TestUser, body: object, at = url) => spec.when((http) => http.post(at).set(who.auth).send(body));
    const search = async (q: string) => (await read((http) => http.get(`/api/v1/medicines/search?q=${q}`).set(doctor.auth).expect(200))).body;
    const paracetamol = (await search('parac')).find((m: { dosage_form: string }) => m.dosage_form === 'Tablet');
    assert.equal(paracetamol.tpg_list, 'O');
    (await prescribe(newPatient, { lines: [line('Paracetamol')] })).expectStatus(403).expectNoEvents();
    (await prescribe(otherDoctor, { lines: [line('Paracetamol')] })).expectStatus(404).expectNoEvents();
    const notHeld = await appointment(doctor, patient, false);
    assert.equal((await prescribe(doctor, { lines: [line('Paracetamol')] }, `/api/v1/consultations/${notHeld}/prescriptions`)).expectStatus(409).expectNoEvents().body.detail, RECORD_TEXTS.consultationNotHeld);
    const unreg = await appointment(unregistered, patient);
    assert.equal((await prescribe(unregistered, { lines: [line('Paracetamol')] }, `/api/v1/consultations/${unreg}/prescriptions`)).expectStatus(403).expectNoEvents().body.detail, RECORD_TEXTS.registrationMissing);
    const morphine = (await search('morphine'))[0];
    assert.equal((await prescribe(doctor, { lines: [line('Morphine', { medicine_id: morphine.id, strength: morphine.strengths[0] })] })).expectStatus(403).expectNoEvents().body.detail, RECORD_TEXTS.prohibited('MORPHINE'));
    const warfarin = (await search('warfarin'))[0];
    assert.equal((await prescribe(doctor, { lines: [line('Warfarin', { medicine_id: warfarin.id, strength: warfarin.strengths[0] })] })).expectStatus(403).expectNoEvents().body.detail, RECORD_TEXTS.listBNeedsFollowUp('WARFARIN'));

    // A follow-up (an earlier consultation with this doctor took place): List B may be added.
    const followUp = await appointment(doctor, newPatient);
    const listB = (await prescribe(doctor, { lines: [line('Warfarin', { medicine_id: warfarin.id, strength: warfarin.strengths[0] })] }, `/api/v1/consultations/${followUp}/prescriptions`)).expectStatus(201);
    listB.expectEvents([{ stream: streams.prescription(listB.body.prescription_id as string), type: 'PrescriptionIssued', data: { appointment_id: followUp } }]);
    const amox = (await search('amoxicillin'))[0];
    const issued = (
      await prescribe(doctor, {
        lines: [line('Paracetamol', { medicine_id: paracetamol.id, strength: '650 mg', instructions: 'After food' }), line('Amoxicillin', { medicine_id: amox.id, strength: '500MG' })],
        diagnosis: 'Acute pharyngitis',
        advice: 'Warm fluids',
        patient_age: 34,
        patient_gender: 'male',
      })
    ).expectStatus(201);
    const pid = issued.body.prescription_id as string;
    issued.expectEvents([{ stream: streams.prescription(pid), type: 'PrescriptionIssued', data: { appointment_id: id } }]);
    const json = (await read((http) => http.get(`/api/v1/prescriptions/${pid}`).set(newPatient.auth).expect(200))).body;
    assert.equal(json.doctor.registration_number, 'MMC-2011-04567');
    assert.equal(json.lines[0].generic_name, 'Paracetamol');
    assert.deepEqual(json.lines.map((l: { strength: string; dosage_form: string }) => [l.strength, l.dosage_form]), [['650 mg', 'Tablet'], ['500 mg', 'Capsule']], 'each line its chosen strength, in the catalogue\'s spelling');
    await read((http) => http.get(`/api/v1/prescriptions/${pid}`).set(otherPatient.auth).expect(404));
    const pdf = await read((http) => http.get(`/api/v1/prescriptions/${pid}/pdf`).set(newPatient.auth).buffer(true).parse(binaryBody).expect(200));
    assert.equal(pdf.headers['content-type'], 'application/pdf');
    const text = (await new PDFParse({ data: new Uint8Array(pdf.body as Buffer) }).getText()).text;
    // Every field of the Guidelines' e-prescription format: the prescriber (name, qualification, registration and
    // council, contact), the patient (name, age, gender), the date, the diagnosis, each medicine (generic name in
    // capitals, strength, form, dose, frequency, duration, instructions), advice, follow-up, the signature block and
    // the issue time, the verification link.
    const issuedAt = DateTime.fromISO(json.issued_at, { zone: DEFAULT_TIMEZONE });
    for (const expected of [
      'MMC-2011-04567', 'Maharashtra Medical Council', 'MBBS, MD', 'Contact:', 'Age: 34', 'Gender: male', 'PARACETAMOL', 'AMOXICILLIN', 'tablet', '500 mg', 'Dose: 1 tablet', 'Frequency:', 'Duration: 5 days',
      'कुमार', 'Acute pharyngitis', 'After food', 'Advice', 'Warm fluids', 'Follow-up', `Issued: ${issuedAt.toFormat('dd LLL yyyy, HH:mm')} IST`, `/verify/${json.verification_code}`, `Date: ${issuedAt.toFormat('dd LLL yyyy')}`,
    ]) {
      assert.ok(text.includes(expected), `the PDF says ${expected}: ${text.slice(0, 400)}`);
    }
    assert.ok(text.includes('PARACETAMOL 650 mg tablet') && text.includes('AMOXICILLIN 500 mg capsule'), 'the line\'s strength and form after the generic in capitals');
    assert.ok(!text.includes('500 mg, 650 mg') && !text.includes('250 mg, 500 mg'), 'never every strength of the catalogue');
    // Devanagari is drawn with the embedded Noto Sans Devanagari and shaped (an extractor reads glyphs in visual
    // order, so a pre-base vowel sign comes out first: रवि reads back as रिव).
    assert.match(text, /Patient: र\S* कुमार/);
    assert.ok(!text.includes('Dose /'), 'a patient who chose no language gets the English page');
    // A patient who reads Tamil (issue 33): the same page, its headings and each line's dose, frequency and duration
    // also in Tamil, drawn with the embedded Noto Sans Tamil.
    (await spec.when((http) => http.put('/api/v1/users/me').set(newPatient.auth).send({ language: 'ta' }))).expectStatus(200);
    const tamil = await read((http) => http.get(`/api/v1/prescriptions/${pid}/pdf`).set(newPatient.auth).buffer(true).parse(binaryBody).expect(200));
    const tamilText = (await new PDFParse({ data: new Uint8Array(tamil.body as Buffer) }).getText()).text;
    assert.ok(tamilText.includes('Dose: 1 tablet') && tamilText.includes('Advice /'), 'the English fields stay, each heading says itself in Tamil too');
    assert.ok((tamil.body as Buffer).toString('latin1').includes('NotoSansTamil'), 'Tamil is drawn with its own font');
    const verified = (await read((http) => http.get(`/api/v1/verify/${json.verification_code}`).expect(200))).body;
    assert.equal(verified.genuine, true);
    assert.equal(verified.doctor.registration_number, 'MMC-2011-04567');
    assert.ok(!JSON.stringify(verified).includes('रवि'), 'nothing of the patient');
    assert.deepEqual(Object.keys(verified).sort(), ['doctor', 'genuine', 'issued_on'], 'only the doctor, the date and whether it is genuine');
    assert.deepEqual(Object.keys(verified.doctor).sort(), ['medical_council', 'name', 'qualification', 'registration_number']);
    assert.equal(verified.issued_on, issuedAt.toISODate());
    for (const secret of ['Acute pharyngitis', 'PARACETAMOL', 'Paracetamol', newPatient.user_id, pid]) assert.ok(!JSON.stringify(verified).includes(secret), `the verification holds ${secret}`);
    assert.equal((await read((http) => http.get('/api/v1/verify/forged-code').expect(200))).body.genuine, false);
  });

  it('strength per line: one the catalogue lists for the medicine (400 otherwise), taken when it lists one; free text keeps its own', async () => {
    const { doctor, patient } = await people();
    const id = await appointment(doctor, patient);
    const url = `/api/v1/consultations/${id}/prescriptions`;
    const found = (await read((http) => http.get('/api/v1/medicines/search?q=paracetamol&limit=20').set(doctor.auth).expect(200))).body as Array<{ id: string; dosage_form: string; strength: string; strengths: string[] }>;
    const tablet = found.find((m) => m.dosage_form === 'Tablet')!;
    const drops = found.find((m) => m.dosage_form === 'Drops')!;
    assert.deepEqual(tablet.strengths, ['500 mg', '650 mg'], 'the suggestion lists the strengths one by one');
    assert.equal(tablet.strength, '500 mg, 650 mg');
    const prescribe = (lines: object[]) => spec.when((http) => http.post(url).set(doctor.auth).send({ lines }));
    const refused = async (extra: Record<string, unknown>) => (await prescribe([line('Paracetamol', { medicine_id: tablet.id, ...extra })])).expectStatus(400).expectNoEvents().body.detail as string;
    assert.equal(await refused({ strength: '1000 mg' }), RECORD_TEXTS.strengthNotListed('Paracetamol', '1000 mg', ['500 mg', '650 mg']));
    assert.equal(await refused({}), RECORD_TEXTS.strengthRequired('Paracetamol', ['500 mg', '650 mg']));
    assert.equal(await refused({ strength: '500 mg', dosage_form: 'Syrup' }), RECORD_TEXTS.dosageFormNotListed('Paracetamol', 'Syrup', 'Tablet'));
    const issued = (
      await prescribe([line('Paracetamol', { medicine_id: drops.id }), line('Paracetamol', { medicine_id: tablet.id, strength: '500 mg', dosage_form: 'tablet' }), line('Chyawanprash', { strength: '1 teaspoon jar', dosage_form: 'Paste' })])
    ).expectStatus(201);
    issued.expectEvents([{ stream: streams.prescription(issued.body.prescription_id as string), type: 'PrescriptionIssued' }]);
    const json = (await read((http) => http.get(`/api/v1/prescriptions/${issued.body.prescription_id}`).set(doctor.auth).expect(200))).body;
    assert.deepEqual(json.lines.map((l: { strength: string; dosage_form: string; medicine_id: string | null }) => [l.medicine_id, l.strength, l.dosage_form]), [
      [drops.id, '100 mg/ml', 'Drops'],
      [tablet.id, '500 mg', 'Tablet'],
      [null, '1 teaspoon jar', 'Paste'],
    ]);
  });

  const reports = (user: TestUser) => (http: TestApp['http']) => http.post('/api/v1/records/reports').set(user.auth);
  const prescriptionFiles = (id: string, user: TestUser) => (http: TestApp['http']) => http.post(`/api/v1/consultations/${id}/prescription-files`).set(user.auth);

  it('uploads: types by content (renamed executable 415, PDF named .png stored as a PDF, DICOM), path-traversal names harmless, records listed and downloaded', async () => {
    const { doctor, patient } = await people();
    const otherDoctor = await spec.given.doctor();
    const id = await appointment(doctor, patient);
    const exe = (await spec.when((http) => reports(patient)(http).field('report_type', 'lab').field('report_date', indiaDate(-1)).attach('files', EXE, { filename: 'report.pdf', contentType: 'application/pdf' })))
      .expectStatus(415)
      .expectNoEvents();
    assert.equal(exe.body.detail, RECORD_TEXTS.reportFileType('report.pdf'));
    (await spec.when((http) => reports(patient)(http).field('report_type', 'lab').field('report_date', indiaDate(3)).attach('files', PDF, 'a.pdf'))).expectStatus(422).expectNoEvents();
    const ok = (
      await spec.when((http) =>
        reports(patient)(http)
          .field('report_type', 'mri_ct')
          .field('report_date', indiaDate(0))
          .field('medical_facility', 'City Scans')
          .field('appointment_id', id)
          .attach('files', PDF, { filename: 'scan.png', contentType: 'image/png' })
          .attach('files', DICOM, { filename: 'image.dcm', contentType: 'application/octet-stream' })
          .attach('files', PNG, { filename: '../../../../etc/passwd.png', contentType: 'image/png' }),
      )
    ).expectStatus(201);
    ok.expectEvents(reportUploaded(ok.body.report_id as string, 3)).expectReactions([]);
    assert.deepEqual(ok.body.files.map((f: { content_type: string }) => f.content_type), ['application/pdf', 'application/dicom', 'image/png']);
    assert.equal(ok.body.files[2].file_name, 'passwd.png');
    const blobDir = join(t.dataDir, 'blobs');
    for (const entry of readdirSync(blobDir, { recursive: true }) as string[]) assert.match(entry, /^(tmp|[0-9a-f]{2}|[0-9a-f]{2}[/\\][0-9a-f]{32})$/, `no client name in ${entry}`);

    const rx = (await spec.when((http) => prescriptionFiles(id, doctor)(http).field('patient_name', 'Ravi Kumar').field('medication_summary', 'Paracetamol').attach('file', PDF, 'rx.pdf'))).expectStatus(201);
    rx.expectEvents(prescriptionFileUploaded(rx.body.record_id as string));
    (await spec.when((http) => prescriptionFiles(id, patient)(http).field('patient_name', 'x').attach('file', PDF, 'rx.pdf'))).expectStatus(403).expectNoEvents();
    const dicomAsRx = (await spec.when((http) => prescriptionFiles(id, doctor)(http).field('patient_name', 'x').attach('file', DICOM, 'rx.pdf'))).expectStatus(415).expectNoEvents();
    assert.equal(dicomAsRx.body.detail, RECORD_TEXTS.prescriptionFileType);

    const mine = (await read((http) => http.get('/api/v1/records/me').set(patient.auth).expect(200))).body;
    assert.equal(mine.reports[0].report_type_name, 'MRI/CT Scan');
    assert.equal(mine.prescription_files[0].medication_summary, 'Paracetamol');
    const fileId = mine.reports[0].files[0].file_id as string;
    const download = await read((http) => http.get(`/api/v1/records/files/${fileId}`).set(doctor.auth).buffer(true).parse(binaryBody).expect(200));
    assert.equal(download.headers['content-type'], 'application/pdf');
    // Saved under the extension of what it is (a PDF), not the name's .png.
    assert.match(download.headers['content-disposition'] ?? '', /^attachment; filename="scan.pdf"/);
    assert.deepEqual(download.body, PDF);
    await read((http) => http.get(`/api/v1/records/files/${fileId}`).set(otherDoctor.auth).expect(404));
    await read((http) => http.get(`/api/v1/patients/${patient.user_id}/records`).set(otherDoctor.auth).expect(404));
    const theirs = (await read((http) => http.get(`/api/v1/patients/${patient.user_id}/records`).set(doctor.auth).expect(200))).body;
    assert.equal(theirs.reports.length, mine.reports.length);
    const log = (await read((http) => http.get('/api/v1/users/me/access-log').set(patient.auth).expect(200))).body.entries as Array<{ what: { resource: string } }>;
    assert.ok(log.some((e) => e.what.resource === 'clinical_records') && log.some((e) => e.what.resource === 'record_file'), 'the doctor\'s reads are on record');
  });

  it('DOCX and DOC by content, from real minimal files: accepted under any name and downloaded as sent; a renamed ZIP, an XLSX or an XLS named .docx/.doc refused', async () => {
    const { doctor, patient } = await people();
    const id = await appointment(doctor, patient);
    const DOCX = minimalDocx();
    const DOC = minimalDoc();
    const bytesOf = async (fileId: string, who: TestUser) => {
      const res = await read((http) => http.get(`/api/v1/records/files/${fileId}`).set(who.auth).buffer(true).parse(binaryBody).expect(200));
      return { type: res.headers['content-type'], body: res.body as Buffer };
    };
    const report = (
      await spec.when((http) =>
        reports(patient)(http)
          .field('report_type', 'other')
          .field('report_date', indiaDate(0))
          .attach('files', DOCX, { filename: 'discharge-summary.docx', contentType: 'application/octet-stream' })
          .attach('files', DOC, { filename: 'old-letter.doc', contentType: 'application/octet-stream' })
          .attach('files', DOCX, { filename: 'renamed.pdf', contentType: 'application/pdf' }),
      )
    ).expectStatus(201);
    report.expectEvents(reportUploaded(report.body.report_id as string, 3));
    assert.deepEqual(report.body.files.map((f: { content_type: string }) => f.content_type), [DOCX_TYPE, 'application/msword', DOCX_TYPE], 'typed by content, whatever the name');
    const [docx, doc] = report.body.files as Array<{ file_id: string }>;
    assert.deepEqual(await bytesOf(docx!.file_id, patient), { type: DOCX_TYPE, body: DOCX });
    assert.deepEqual(await bytesOf(doc!.file_id, patient), { type: 'application/msword', body: DOC });
    const rx = (await spec.when((http) => prescriptionFiles(id, doctor)(http).field('patient_name', 'Ravi Kumar').attach('file', DOC, 'signed-rx.doc'))).expectStatus(201);
    rx.expectEvents(prescriptionFileUploaded(rx.body.record_id as string));
    assert.equal(rx.body.file.content_type, 'application/msword');

    for (const [bytes, name] of [[plainZip(), 'notes.docx'], [minimalXlsx(), 'lab-values.docx'], [minimalXls(), 'lab-values.doc']] as const) {
      const refused = (
        await spec.when((http) =>
          reports(patient)(http).field('report_type', 'lab').field('report_date', indiaDate(0)).attach('files', bytes, { filename: name, contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' }),
        )
      )
        .expectStatus(415)
        .expectNoEvents();
      assert.equal(refused.body.detail, RECORD_TEXTS.reportFileType(name));
      const asRx = (await spec.when((http) => prescriptionFiles(id, doctor)(http).field('patient_name', 'Ravi Kumar').attach('file', bytes, name))).expectStatus(415).expectNoEvents();
      assert.equal(asRx.body.detail, RECORD_TEXTS.prescriptionFileType);
    }
  });
  it('an oversized file gets 413 with the seeds\' text before the whole body is sent', async () => {
    const patient = await spec.given.patient();
    const boundary = 'xTelemedBoundary';
    const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="report_type"\r\n\r\nlab\r\n--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n`);
    const total = 120 * 1024 * 1024;
    const result = await new Promise<{ status: number; body: string; sent: number }>((resolve, reject) => {
      let sent = 0;
      let done = false;
      const req = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: '/api/v1/records/reports', headers: { ...patient.auth, 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Transfer-Encoding': 'chunked' } }, (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => {
          done = true;
          resolve({ status: res.statusCode ?? 0, body, sent });
          req.destroy();
        });
      });
      req.on('error', (error) => (done ? undefined : reject(error)));
      req.write(head);
      const chunk = Buffer.alloc(256 * 1024, 0x41);
      const pump = () => {
        while (!done && sent < total) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
        if (!done) req.end(`\r\n--${boundary}--\r\n`);
      };
      pump();
    });
    assert.equal(result.status, 413);
    assert.equal(JSON.parse(result.body).detail, RECORD_TEXTS.reportFileTooLarge('big.pdf'));
    assert.ok(result.sent < total, `answered after ${result.sent} of ${total} bytes`);
  });

  it('a body announced larger than any upload may be gets 413 before any of it is read', async () => {
    const patient = await spec.given.patient();
    (await spec.when((http) => reports(patient)(http).set('Content-Type', 'multipart/form-data; boundary=x').set('Content-Length', String(500 * 1024 * 1024)).send()))
      .expectStatus(413)
      .expectNoEvents();
  });

  it("an erasure keeps the clinical records (legal hold) for their retention period, then a sweep destroys their key", async () => {
    const { doctor, patient: held } = await people('Kavita Rao');
    const id = await appointment(doctor, held);
    (await spec.when((http) => http.put(`/api/v1/consultations/${id}/notes`).set(doctor.auth).send({ is_draft: false, patient_name: 'Kavita Rao', chief_complaint: 'Migraine with aura', template: 'general_consultation' })))
      .expectStatus(200)
      .expectEvents(notesSaved(id, false));
    const paracetamol = (await read((http) => http.get('/api/v1/medicines/search?q=paracetamol').set(doctor.auth).expect(200))).body[0];
    const issued = (
      await spec.when((http) =>
        http
          .post(`/api/v1/consultations/${id}/prescriptions`)
          .set(doctor.auth)
          .send({ lines: [line('Paracetamol', { medicine_id: paracetamol.id, strength: paracetamol.strengths[0] })], diagnosis: 'Migraine' }),
      )
    ).expectStatus(201);
    const pid = issued.body.prescription_id as string;
    issued.expectEvents([{ stream: streams.prescription(pid), type: 'PrescriptionIssued' }]);
    const rx = await more.prescriptionFile(doctor, id, 'Kavita Rao');
    const report = (
      await spec.when((http) => reports(held)(http).field('report_type', 'lab').field('report_date', indiaDate(0)).field('report_summary', 'Her own lab report').attach('files', PDF, 'lab.pdf'))
    ).expectStatus(201);
    report.expectEvents(reportUploaded(report.body.report_id as string, 1));
    const blobOf = async (stream: string) => ((await t.app.eventStore.log.readStream(stream)).find((e) => e.type === 'RecordFileStored')!.data as { blob_id: string }).blob_id;
    const rxBlob = await blobOf(streams.prescriptionFile(rx.record_id));
    const reportBlob = await blobOf(streams.medicalReport(report.body.report_id));

    const erased = (await spec.when((http) => http.post('/api/v1/users/me/erasure').set(held.auth)))
      .expectStatus(200)
      .expectEvents([{ stream: streams.user(held.user_id), type: 'PersonalDataErased' }])
      .expectReactions([]);
    assert.ok((erased.body.kept as Array<{ what: string }>).some((k) => /clinical records/i.test(k.what)), 'the answer says the clinical records are kept');
    // Kept: the doctor still reads the notes, the prescription (with the patient's name) and opens the prescription file.
    const kept = (await read((http) => http.get(`/api/v1/prescriptions/${pid}`).set(doctor.auth).expect(200))).body;
    assert.equal(kept.patient.name, 'Kavita Rao');
    assert.equal(kept.diagnosis, 'Migraine');
    assert.equal((await read((http) => http.get(`/api/v1/consultations/${id}/notes`).set(doctor.auth).expect(200))).body.chief_complaint, 'Migraine with aura');
    await t.app.blobs.open(rxBlob);
    // Not kept: the patient's own report is unreadable at once.
    await assert.rejects(() => t.app.blobs.open(reportBlob), /destroyed/);

    // A sweep before the end of the retention period changes nothing; after it, the clinical key is destroyed.
    await t.app.runSweepsNow();
    assert.equal((await read((http) => http.get(`/api/v1/prescriptions/${pid}`).set(doctor.auth).expect(200))).body.patient.name, 'Kavita Rao');
    const saved = now;
    now = new Date(Date.parse(saved.toISOString()) + (3 * 365 + 2) * 86_400_000);
    try {
      await t.app.runSweepsNow();
      const ended = (await read((http) => http.get(`/api/v1/prescriptions/${pid}`).set(doctor.auth).expect(200))).body;
      assert.equal(ended.patient.name, '[erased]');
      assert.equal(ended.diagnosis, '[erased]');
      await assert.rejects(() => t.app.blobs.open(rxBlob), /destroyed/);
      const stream = await t.app.eventStore.readStream(streams.user(held.user_id));
      assert.equal(stream.filter((e) => e.type === 'ClinicalRecordsDestroyed').length, 1, 'recorded once');
      await t.app.runSweepsNow();
      assert.equal((await t.app.eventStore.readStream(streams.user(held.user_id))).filter((e) => e.type === 'ClinicalRecordsDestroyed').length, 1, 'and only once');
    } finally {
      now = saved;
    }
  });

  it('erasing the patient destroys their key: their files no longer open', async () => {
    const erasedPatient = await spec.given.patient();
    const res = (await spec.when((http) => reports(erasedPatient)(http).field('report_type', 'other').field('report_date', indiaDate(0)).attach('files', PDF, 'mine.pdf'))).expectStatus(201);
    res.expectEvents(reportUploaded(res.body.report_id as string, 1));
    const fileId = res.body.files[0].file_id as string;
    await read((http) => http.get(`/api/v1/records/files/${fileId}`).set(erasedPatient.auth).expect(200));
    const blobId = (await t.app.eventStore.log.readStream(streams.medicalReport(res.body.report_id))).find((e) => e.type === 'RecordFileStored')!.data as { blob_id: string };
    (await spec.when((http) => http.post('/api/v1/users/me/erasure').set(erasedPatient.auth)))
      .expectStatus(200)
      .expectEvents([{ stream: streams.user(erasedPatient.user_id), type: 'PersonalDataErased' }]);
    await assert.rejects(() => t.app.blobs.open(blobId.blob_id), /destroyed/);
  });
});
