import { createRequire } from 'node:module';
import { DateTime } from 'luxon';
import PDFDocument from 'pdfkit';
import QRCode from 'qrcode';
import { DEFAULT_TIMEZONE, FREQUENCY_LABELS, prescribedMedicineLabel, type PrescriptionView } from '@telemed/contracts';

const require = createRequire(import.meta.url);
/**
 * Noto Sans Devanagari from @fontsource (SIL Open Font License), the WOFF that pdfkit's fontkit embeds and shapes;
 * used for runs of Devanagari (Hindi names), Helvetica for the rest (the subset holds no Latin letters).
 */
const DEVANAGARI_FONT = require.resolve('@fontsource/noto-sans-devanagari/files/noto-sans-devanagari-devanagari-400-normal.woff');
/** Devanagari, Vedic extensions and Devanagari Extended (by code point: the blocks hold combining marks). */
const isDevanagari = (char: string) => {
  const code = char.codePointAt(0)!;
  return (code >= 0x0900 && code <= 0x097f) || (code >= 0x1cd0 && code <= 0x1cff) || (code >= 0xa8e0 && code <= 0xa8ff);
};

/** Text split into runs of Devanagari and of everything else (spaces stay with the Latin runs). */
function runs(text: string): Array<{ text: string; devanagari: boolean }> {
  const out: Array<{ text: string; devanagari: boolean }> = [];
  for (const char of text) {
    const devanagari = isDevanagari(char) || ((char === '\u200C' || char === '\u200D') && out.at(-1)?.devanagari === true);
    const last = out.at(-1);
    if (last && last.devanagari === devanagari) last.text += char;
    else out.push({ text: char, devanagari });
  }
  return out;
}

type Doc = InstanceType<typeof PDFDocument>;

function write(doc: Doc, text: string, options: { size?: number; bold?: boolean } = {}): void {
  const parts = runs(text);
  doc.fontSize(options.size ?? 10);
  parts.forEach((part, i) => {
    doc.font(part.devanagari ? 'devanagari' : options.bold ? 'Helvetica-Bold' : 'Helvetica');
    doc.text(part.text, { continued: i < parts.length - 1 });
  });
  if (parts.length === 0) doc.text('');
}

/** The consultation's mode and kind as the page says them; either one unreadable (its key destroyed) said so. */
function consultationLine(p: PrescriptionView): string {
  const mode = p.consultation_mode === null ? 'teleconsultation (mode no longer readable)' : `${p.consultation_mode} teleconsultation`;
  const kind = p.consultation_kind === null ? 'no longer readable' : p.consultation_kind === 'first' ? 'first consultation' : 'follow-up';
  return `${mode}, ${kind}`;
}

const when = (iso: string, format: string) => DateTime.fromISO(iso, { zone: DEFAULT_TIMEZONE }).toFormat(format);

/**
 * The e-prescription as a PDF in the Telemedicine Practice Guidelines 2020 format (Annexure 2): the prescriber
 * (name, qualification, registration number and council, contact), the patient (name, age, gender), the date,
 * the provisional diagnosis, each medicine by generic name in capitals with strength and form (the brand, when one was
 * prescribed, after it in brackets: "PARACETAMOL 650 mg tablet (Dolo 650)"), dose, frequency,
 * duration and instructions, advice and follow-up, the doctor's name under a signature line, the issue time, and a
 * verification link with its QR code (the public page shows only the doctor, the date and that it is genuine).
 */
export async function renderPrescriptionPdf(p: PrescriptionView): Promise<Doc> {
  const qr = await QRCode.toBuffer(p.verification_url, { type: 'png', margin: 1, width: 240, errorCorrectionLevel: 'M' });
  const doc = new PDFDocument({ size: 'A4', margin: 50, info: { Title: `Prescription ${p.prescription_id}`, Author: p.doctor.name, Subject: 'e-Prescription' } });
  doc.registerFont('devanagari', DEVANAGARI_FONT);

  write(doc, p.doctor.name, { size: 16, bold: true });
  write(doc, p.doctor.qualification);
  write(doc, `Reg. No.: ${p.doctor.registration_number}  (${p.doctor.medical_council})`);
  // Every field of the Guidelines' format is on the page, a missing one said to be missing rather than left out.
  write(doc, `Contact: ${p.doctor.contact ?? 'not recorded'}`);
  doc.moveDown(0.5).moveTo(50, doc.y).lineTo(545, doc.y).stroke().moveDown(0.5);

  write(doc, `Date: ${when(p.issued_at, 'dd LLL yyyy')}`);
  write(doc, `Patient: ${p.patient.name}`, { bold: true });
  write(doc, `Age: ${p.patient.age ?? 'not recorded'}    Gender: ${p.patient.gender ?? 'not recorded'}`);
  write(doc, `Consultation: ${consultationLine(p)}`);
  doc.moveDown(0.5);
  write(doc, 'Provisional diagnosis / chief complaint', { bold: true });
  write(doc, p.diagnosis ?? 'Not stated');
  doc.moveDown(0.5);

  write(doc, 'Rx', { size: 14, bold: true });
  p.lines.forEach((line, i) => {
    write(doc, `${i + 1}. ${prescribedMedicineLabel(line)}`, { bold: true });
    const frequency = line.frequency === 'custom' ? (line.custom_schedule ?? FREQUENCY_LABELS.custom) : FREQUENCY_LABELS[line.frequency];
    write(doc, `   Dose: ${line.dosage}   Frequency: ${frequency}   Duration: ${line.duration_value} ${line.duration_unit}`);
    if (line.instructions) write(doc, `   Instructions: ${line.instructions}`);
  });
  doc.moveDown(0.5);
  write(doc, 'Advice', { bold: true });
  write(doc, p.advice ?? 'None');
  write(doc, 'Follow-up', { bold: true });
  write(doc, p.follow_up ?? 'As needed');

  doc.moveDown(2);
  doc.moveTo(350, doc.y).lineTo(545, doc.y).stroke();
  doc.moveDown(0.3);
  doc.x = 350;
  write(doc, p.doctor.name, { bold: true });
  doc.x = 350;
  write(doc, `Reg. No.: ${p.doctor.registration_number}`);
  doc.x = 50;
  doc.moveDown(1);
  write(doc, `Issued: ${when(p.issued_at, "dd LLL yyyy, HH:mm 'IST'")}`, { size: 9 });
  write(doc, `Prescription ID: ${p.prescription_id}`, { size: 9 });
  write(doc, `Verify: ${p.verification_url}`, { size: 9 });
  doc.image(qr, 50, doc.y + 6, { width: 90 });
  write(doc, ' ');
  doc.end();
  return doc;
}
