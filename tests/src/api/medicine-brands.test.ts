import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PDFParse } from 'pdf-parse';
import { streams, type MedicineSuggestion } from '@telemed/contracts';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { apiSpec, type ApiSpec } from '../support/api-spec';
import { moreGiven, type MoreGiven } from '../support/api-spec-extra';
import { binaryBody } from '../support/binary-body';

/**
 * Indian doctors type brands (issue 31, item 10): the search finds the shipped brands by brand or generic, a brand or
 * generic prefix before anything merely near the query, and a prescription written from a brand names the generic
 * in capitals, the brand after it.
 */
describe('medicine brands: search and the e-prescription', () => {
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

  const givenDoctor = () => spec.given.doctor({ name: 'Dr. Kavita Rao', doctor: { registration_number: 'KMC-31', medical_council: 'Karnataka Medical Council', qualification: 'MBBS' } });
  const searchAs = (doctor: TestUser) => async (q: string, limit = 10) => (await spec.read((http) => http.get(`/api/v1/medicines/search?q=${encodeURIComponent(q)}&limit=${limit}`).set(doctor.auth).expect(200))).body as MedicineSuggestion[];

  it('GET /medicines/search: "dolo" is Dolo 650 first, with its generic; "crocin", "pan 40" and "paracetamol" find their brands', async () => {
    const doctor = await givenDoctor();
    const search = searchAs(doctor);
    const dolo = await search('dolo');
    assert.deepEqual({ ...dolo[0], id: undefined }, { id: undefined, name: 'Dolo 650', generic_name: 'Paracetamol', manufacturer: 'Micro Labs', strength: '650 mg', strengths: ['650 mg'], dosage_form: 'Tablet', tpg_list: 'O' });
    const hiv = dolo.findIndex((m) => /dolutegravir/i.test(m.generic_name));
    assert.ok(hiv === -1 || hiv > 0, 'no HIV medicine above Dolo 650');
    assert.ok((await search('crocin')).some((m) => m.name === 'Crocin 650' && m.generic_name === 'Paracetamol'));
    assert.equal((await search('pan 40'))[0]?.name, 'Pan 40');
    assert.equal((await search('PAN-40'))[0]?.name, 'Pan 40');
    const paracetamol = await search('paracetamol', 20);
    assert.equal(paracetamol[0]?.name, 'Paracetamol', 'the generic first');
    assert.ok(paracetamol.some((m) => m.name === 'Dolo 650'), 'and its brands');
    const pan = (await search('pan', 20)).map((m) => m.name);
    const firstOther = pan.findIndex((n) => !/^pan/i.test(n));
    assert.ok(pan.indexOf('Pan 40') >= 0 && (firstOther === -1 || pan.indexOf('Pan 40') < firstOther), pan.join());
    const tooShort = await spec.read((http) => http.get('/api/v1/medicines/search?q=d').set(doctor.auth).expect(422));
    assert.ok(tooShort.body.detail && tooShort.body.code, 'a query under 2 characters is refused with a detail and a code');
  });

  it('a prescription written from a brand stores the generic and prints it in capitals, the brand after it', async () => {
    const doctor = await givenDoctor();
    const search = searchAs(doctor);
    const patient = await spec.given.patient({ name: 'Suresh Patil' });
    const { appointment_id: appointmentId } = await more.consultation({ doctor, patient, setNow: (d) => (now = d) });
    const [dolo] = await search('dolo 650');
    const line = { dosage: '1 tablet', frequency: 'three_times_daily', duration_value: 3, duration_unit: 'days' };
    const issued = (
      await spec.when((http) =>
        http
          .post(`/api/v1/consultations/${appointmentId}/prescriptions`)
          .set(doctor.auth)
          // One picked from the suggestions, one typed as the brand's name without picking it.
          .send({ lines: [{ ...line, medicine: dolo!.name, medicine_id: dolo!.id }, { ...line, medicine: 'Augmentin 625 Duo', strength: '500 mg + 125 mg', dosage_form: 'Tablet', frequency: 'twice_daily' }], diagnosis: 'Fever' }),
      )
    ).expectStatus(201);
    const pid = issued.body.prescription_id as string;
    issued.expectEvents([{ stream: streams.prescription(pid), type: 'PrescriptionIssued', data: { appointment_id: appointmentId, patient_id: patient.user_id } }]).expectReactions([]);
    const json = (await spec.read((http) => http.get(`/api/v1/prescriptions/${pid}`).set(patient.auth).expect(200))).body as { lines: Array<{ medicine: string; generic_name: string; strength: string; dosage_form: string }> };
    assert.deepEqual(
      json.lines.map((l) => [l.medicine, l.generic_name, l.strength, l.dosage_form]),
      [
        ['Dolo 650', 'Paracetamol', '650 mg', 'Tablet'],
        ['Augmentin 625 Duo', 'Amoxicillin + Clavulanic acid', '500 mg + 125 mg', 'Tablet'],
      ],
    );
    const pdf = await spec.read((http) => http.get(`/api/v1/prescriptions/${pid}/pdf`).set(patient.auth).buffer(true).parse(binaryBody).expect(200));
    const text = (await new PDFParse({ data: new Uint8Array(pdf.body as Buffer) }).getText()).text;
    assert.ok(text.includes('1. PARACETAMOL 650 mg tablet (Dolo 650)'), text.slice(0, 800));
    assert.ok(text.includes('2. AMOXICILLIN + CLAVULANIC ACID 500 mg + 125 mg tablet (Augmentin 625 Duo)'), text.slice(0, 800));
    // The patient's records list the medicines as the prescription prints them.
    const listed = (await spec.read((http) => http.get('/api/v1/records/me').set(patient.auth).expect(200))).body.prescriptions[0].medicines as Array<{ medicine: string }>;
    assert.deepEqual(listed.map((m) => m.medicine), ['PARACETAMOL 650 mg tablet (Dolo 650)', 'AMOXICILLIN + CLAVULANIC ACID 500 mg + 125 mg tablet (Augmentin 625 Duo)']);
  });
});
