import { z } from './zod';

/**
 * Erasure (right to erasure, DPDP Act 2023 §12): the person's data key is destroyed, so every personal field of
 * theirs in the immutable log reads as erased ("crypto-shredding"), and the read models blank what they held.
 */

export interface KeptRecord {
  what: string;
  why: string;
}

/**
 * What is kept after an erasure, and why (the legal hold). The Telemedicine Practice Guidelines 2020 (3.7.1) ask the
 * registered medical practitioner to keep the records of each teleconsultation; three years is the period the Indian
 * Medical Council (Professional Conduct) Regulations 2002 (1.3.1) set for medical records. The records kept are facts
 * without personal fields, and the clinical records under a key of their own (see KeyScope in personal-fields) until
 * the retention period ends. The wording is for counsel to review (see the README's Privacy section).
 */
/** How long an erased person's clinical records are kept before their key is destroyed (IMC Regulations 2002, 1.3.1). */
export const CLINICAL_RECORDS_RETENTION_YEARS = 3;

const APPOINTMENTS_HOLD_WHY =
  'The Telemedicine Practice Guidelines 2020 (3.7.1) ask doctors to keep the records of each teleconsultation (three years, the period of the Indian Medical Council Regulations 2002, 1.3.1)';
const CONSENTS_KEPT: KeptRecord = {
  what: 'Consent records: which version of the privacy notice was agreed to or withdrawn, and when',
  why: 'Proof that personal data was processed with consent (Digital Personal Data Protection Act 2023, section 6(10)); they hold no personal details',
};
const ERASURE_RECORD_KEPT: KeptRecord = {
  what: 'The record of this erasure: when it happened and who asked',
  why: 'Proof that the request was carried out (Digital Personal Data Protection Act 2023, section 12); it holds no personal details',
};

/** What is kept after a patient's erasure, and why. */
export const PATIENT_ERASURE_LEGAL_HOLD: readonly KeptRecord[] = [
  {
    what: "Your clinical records: the doctors' consultation notes, prescriptions and prescription files, under a key of their own",
    why:
      'The Telemedicine Practice Guidelines 2020 (3.7.1) ask doctors to keep them, for three years (Indian Medical Council Regulations 2002, 1.3.1); they are readable only by the doctors who wrote them, and their key is destroyed three years after this erasure',
  },
  {
    what: 'Appointment records without personal details: date and time, doctor, status and its changes, fee',
    why: `${APPOINTMENTS_HOLD_WHY}; your name, contact details, reason for visit and the reasons given are erased from them`,
  },
  CONSENTS_KEPT,
  ERASURE_RECORD_KEPT,
];

/** What is kept after a doctor's erasure, and why. */
export const DOCTOR_ERASURE_LEGAL_HOLD: readonly KeptRecord[] = [
  {
    what:
      'The prescriptions and consultation notes you issued, with your qualification, registration number and medical council as printed on the prescriptions (your name is erased)',
    why:
      "They are part of your patients' clinical records, which the Telemedicine Practice Guidelines 2020 (3.7.1) ask doctors to keep; they are kept under your patients' keys for as long as each patient's records are kept, and a prescription's public check still says it is genuine",
  },
  {
    what: 'Records of the appointments you gave, without personal details: date and time, patient, status and its changes, fee',
    why: `${APPOINTMENTS_HOLD_WHY}; your name and contact details are erased from them`,
  },
  {
    what:
      'Your professional details that were recorded without encryption: your specialty, qualification, city and consultation fee; your published schedule (the dates and times of your slots); and of your blog posts their category, dates and cover-picture link, and the digests of the pictures you uploaded',
    why:
      'They are in the event log, which is never edited, and were written there in clear because on their own they carry no name; your name, contact details and the text of your posts are erased',
  },
  CONSENTS_KEPT,
  ERASURE_RECORD_KEPT,
];

/** What is kept after an administrator's erasure, and why. */
export const ADMIN_ERASURE_LEGAL_HOLD: readonly KeptRecord[] = [CONSENTS_KEPT, ERASURE_RECORD_KEPT];

/** The kept list the erasure answer gives, by the erased account's type. */
export function erasureLegalHold(accountType: 'patient' | 'doctor' | 'admin'): readonly KeptRecord[] {
  return accountType === 'doctor' ? DOCTOR_ERASURE_LEGAL_HOLD : accountType === 'admin' ? ADMIN_ERASURE_LEGAL_HOLD : PATIENT_ERASURE_LEGAL_HOLD;
}

export const ERASURE_TEXTS = {
  alreadyErased: 'This account was already erased',
  ownAccountViaAdmin: 'Use POST /api/v1/users/me/erasure to erase your own account',
  adminOnOwnRequest: "A platform admin's account is erased only at its own request (POST /api/v1/users/me/erasure)",
} as const;

export const erasureResponseSchema = z
  .object({
    /** When the erasure was recorded (PersonalDataErased) and the data key destroyed. */
    erased_at: z.string(),
    /** What a law requires to be kept, and why: none of it holds the person's personal details (a doctor's blog posts are not kept: their text is under the doctor's key). */
    kept: z.array(z.object({ what: z.string(), why: z.string() })),
  })
  .openapi('ErasureResult');
export type ErasureResult = z.infer<typeof erasureResponseSchema>;

export const erasureParamsSchema = z.object({ user_id: z.string().min(1).max(64) });
