import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PDFParse } from 'pdf-parse';
import { LANGUAGE_CODES, languageOf } from '@telemed/contracts/languages';
import { prescriptionLabels, type PrescriptionView } from '@telemed/contracts';
import { renderPrescriptionPdf } from './prescription-pdf';
import { scriptRuns } from './pdf-scripts';

const prescription: PrescriptionView = {
  prescription_id: 'rx-1',
  appointment_id: 'a-1',
  patient_id: 'p-1',
  doctor_id: 'd-1',
  issued_at: '2026-12-06T10:00:00Z',
  verification_code: 'code',
  verification_url: 'http://localhost/verify/code',
  consultation_mode: 'video',
  consultation_kind: 'first',
  doctor: { name: 'Dr. Meera Kulkarni', qualification: 'MBBS, MD', registration_number: 'MMC-1', medical_council: 'Maharashtra Medical Council', contact: null },
  patient: { name: 'Ravi Kumar', age: 34, gender: 'male' },
  diagnosis: 'Acute pharyngitis',
  advice: 'Warm fluids',
  follow_up: null,
  lines: [
    { medicine_id: null, medicine: 'Paracetamol', generic_name: 'Paracetamol', strength: '650 mg', dosage_form: 'Tablet', tpg_list: 'O', dosage: '1 tablet', frequency: 'twice_daily', custom_schedule: null, duration_value: 5, duration_unit: 'days', instructions: 'After food' },
  ],
};

async function pdfOf(language: (typeof LANGUAGE_CODES)[number]) {
  const doc = await renderPrescriptionPdf(prescription, prescriptionLabels(language));
  const chunks: Buffer[] = [];
  for await (const chunk of doc) chunks.push(chunk as Buffer);
  const bytes = Buffer.concat(chunks);
  return { bytes, text: (await new PDFParse({ data: new Uint8Array(bytes) }).getText()).text };
}

const FONT_NAMES = { Deva: 'NotoSansDevanagari', Beng: 'NotoSansBengali', Guru: 'NotoSansGurmukhi', Gujr: 'NotoSansGujarati', Taml: 'NotoSansTamil', Telu: 'NotoSansTelugu', Knda: 'NotoSansKannada', Mlym: 'NotoSansMalayalam' } as const;

describe('the e-prescription in the patient’s language', () => {
  it('splits text into runs of one script, spaces and dandas inside a phrase staying with it', () => {
    assert.deepEqual(scriptRuns('Dose / खुराक: 1 tablet'), [
      { text: 'Dose / ', script: null },
      { text: 'खुराक', script: 'devanagari' },
      { text: ': 1 tablet', script: null },
    ]);
    assert.deepEqual(scriptRuns('দিনে দুবার।'), [{ text: 'দিনে দুবার।', script: 'bengali' }]);
    assert.deepEqual(scriptRuns('நாளுக்கு இரண்டு முறை x'), [
      { text: 'நாளுக்கு இரண்டு முறை', script: 'tamil' },
      { text: ' x', script: null },
    ]);
  });

  it('is in English alone for an English reader', async () => {
    const { bytes, text } = await pdfOf('en');
    assert.ok(text.includes('Dose: 1 tablet') && text.includes('Advice'));
    assert.ok(!/NotoSans[A-Z]/.test(bytes.toString('latin1')), 'no Indic font embedded');
  });

  for (const language of LANGUAGE_CODES.filter((code) => code !== 'en')) {
    const { script, name } = languageOf(language);
    it(`${name}: keeps the Guidelines' English and adds the headings and the line's dose, frequency and duration, in the ${script} font`, async () => {
      const words = prescriptionLabels(language);
      assert.ok(words, `${name} has its labels`);
      const { bytes, text } = await pdfOf(language);
      for (const english of ['Dose: 1 tablet', 'Frequency: Twice daily', 'Duration: 5 days', 'Advice', 'Warm fluids', 'PARACETAMOL 650 mg tablet']) assert.ok(text.includes(english), `${english} in ${text.slice(0, 300)}`);
      assert.ok(bytes.toString('latin1').includes(FONT_NAMES[script as keyof typeof FONT_NAMES]), `the ${script} font is embedded`);
      // Extractors read shaped glyphs in visual order (a pre-base vowel sign first), so count the script's letters.
      const lettersOfScript = [...text].filter((char) => scriptRuns(char)[0]?.script !== null).length;
      assert.ok(lettersOfScript > 40, `the page says a good deal in ${name} (${lettersOfScript} letters)`);
    });
  }
});
