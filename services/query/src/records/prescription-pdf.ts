import { DateTime } from 'luxon';
import PDFDocument from 'pdfkit';
import QRCode from 'qrcode';
import { DEFAULT_TIMEZONE, FREQUENCY_LABELS, prescribedMedicineLabel, type PrescriptionLabels, type PrescriptionView } from '@telemed/contracts';
import { registerScriptFonts, writeLine as write } from './pdf-scripts';

type Doc = InstanceType<typeof PDFDocument>;

/** The consultation's mode and kind as the page says them; either one unreadable (its key destroyed) said so. */
function consultationLine(p: PrescriptionView): string {
  const mode = p.consultation_mode === null ? 'teleconsultation (mode no longer readable)' : `${p.consultation_mode} teleconsultation`;
  const kind = p.consultation_kind === null ? 'no longer readable' : p.consultation_kind === 'first' ? 'first consultation' : 'follow-up';
  return `${mode}, ${kind}`;
}

const when = (iso: string, format: string) => DateTime.fromISO(iso, { zone: DEFAULT_TIMEZONE }).toFormat(format);

/** "English / translation" when the patient reads another language, else the English alone. */
const both = (english: string, translated: string | undefined) => (translated ? `${english} / ${translated}` : english);

type Line = PrescriptionView['lines'][number];

const genderWord = (gender: string, words: PrescriptionLabels) => (gender === 'female' || gender === 'male' || gender === 'other' ? words.genders[gender] : undefined);

/** The fixed words of a line in the patient's language (what the doctor typed stays as typed). */
function translatedLine(line: Line, words: PrescriptionLabels): string {
  const frequency = line.frequency === 'custom' ? line.custom_schedule ?? words.frequencies.custom : words.frequencies[line.frequency];
  return `   ${words.dose}: ${line.dosage}   ${words.frequency}: ${frequency}   ${words.duration}: ${words.units[line.duration_unit].replace('{n}', String(line.duration_value))}`;
}

/**
 * The e-prescription as a PDF in the Telemedicine Practice Guidelines 2020 format (Annexure 2): the prescriber
 * (name, qualification, registration number and council, contact), the patient (name, age, gender), the date,
 * the provisional diagnosis, each medicine by generic name in capitals with strength and form (the brand, when one was
 * prescribed, after it in brackets: "PARACETAMOL 650 mg tablet (Dolo 650)"), dose, frequency,
 * duration and instructions, advice and follow-up, the doctor's name under a signature line, the issue time, and a
 * verification link with its QR code (the public page shows only the doctor, the date and that it is genuine).
 *
 * With `words` (the patient reads another language, issue 33) every heading and label also says itself in that
 * language, and each medicine gets a second line with its dose, frequency and duration in it, in that script's font.
 */
export async function renderPrescriptionPdf(p: PrescriptionView, words: PrescriptionLabels | null = null): Promise<Doc> {
  const qr = await QRCode.toBuffer(p.verification_url, { type: 'png', margin: 1, width: 240, errorCorrectionLevel: 'M' });
  const doc = new PDFDocument({ size: 'A4', margin: 50, info: { Title: `Prescription ${p.prescription_id}`, Author: p.doctor.name, Subject: 'e-Prescription' } });
  registerScriptFonts(doc);
  const w = words ?? undefined;

  write(doc, p.doctor.name, { size: 16, bold: true });
  write(doc, p.doctor.qualification);
  write(doc, `Reg. No.: ${p.doctor.registration_number}  (${p.doctor.medical_council})`);
  // Every field of the Guidelines' format is on the page, a missing one said to be missing rather than left out.
  write(doc, `Contact: ${p.doctor.contact ?? 'not recorded'}`);
  doc.moveDown(0.5).moveTo(50, doc.y).lineTo(545, doc.y).stroke().moveDown(0.5);

  if (w) write(doc, w.prescription, { size: 12, bold: true });
  write(doc, `${both('Date', w?.date)}: ${when(p.issued_at, 'dd LLL yyyy')}`);
  write(doc, `${both('Patient', w?.patient)}: ${p.patient.name}`, { bold: true });
  const gender = p.patient.gender === null ? null : both(p.patient.gender, w && genderWord(p.patient.gender, w));
  write(doc, `${both('Age', w?.age)}: ${p.patient.age ?? both('not recorded', w?.notRecorded)}    ${both('Gender', w?.gender)}: ${gender ?? both('not recorded', w?.notRecorded)}`);
  write(doc, `${both('Consultation', w?.consultation)}: ${consultationLine(p)}`);
  if (w && p.consultation_mode !== null && p.consultation_kind !== null) write(doc, `   ${w.modes[p.consultation_mode]}, ${w.kinds[p.consultation_kind]}`);
  doc.moveDown(0.5);
  write(doc, both('Provisional diagnosis / chief complaint', w?.diagnosis), { bold: true });
  write(doc, p.diagnosis ?? both('Not stated', w?.notStated));
  doc.moveDown(0.5);

  write(doc, w ? `Rx  (${w.medicines})` : 'Rx', { size: 14, bold: true });
  p.lines.forEach((line, i) => {
    write(doc, `${i + 1}. ${prescribedMedicineLabel(line)}`, { bold: true });
    const frequency = line.frequency === 'custom' ? (line.custom_schedule ?? FREQUENCY_LABELS.custom) : FREQUENCY_LABELS[line.frequency];
    write(doc, `   Dose: ${line.dosage}   Frequency: ${frequency}   Duration: ${line.duration_value} ${line.duration_unit}`);
    if (w) write(doc, translatedLine(line, w));
    if (line.instructions) write(doc, `   ${both('Instructions', w?.instructions)}: ${line.instructions}`);
  });
  doc.moveDown(0.5);
  write(doc, both('Advice', w?.advice), { bold: true });
  write(doc, p.advice ?? both('None', w?.none));
  write(doc, both('Follow-up', w?.followUp), { bold: true });
  write(doc, p.follow_up ?? both('As needed', w?.asNeeded));

  doc.moveDown(2);
  doc.moveTo(350, doc.y).lineTo(545, doc.y).stroke();
  doc.moveDown(0.3);
  doc.x = 350;
  write(doc, p.doctor.name, { bold: true });
  doc.x = 350;
  write(doc, `Reg. No.: ${p.doctor.registration_number}`);
  doc.x = 50;
  doc.moveDown(1);
  write(doc, `${both('Issued', w?.issued)}: ${when(p.issued_at, "dd LLL yyyy, HH:mm 'IST'")}`, { size: 9 });
  write(doc, `Prescription ID: ${p.prescription_id}`, { size: 9 });
  write(doc, `${both('Verify', w?.verify)}: ${p.verification_url}`, { size: 9 });
  doc.image(qr, 50, doc.y + 6, { width: 90 });
  write(doc, ' ');
  doc.end();
  return doc;
}
