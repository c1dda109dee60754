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

export const ERASURE_LEGAL_HOLD: readonly KeptRecord[] = [
  {
    what: "Your clinical records: the doctors' consultation notes, prescriptions and prescription files, under a key of their own",
    why:
      'The Telemedicine Practice Guidelines 2020 (3.7.1) ask doctors to keep them, for three years (Indian Medical Council Regulations 2002, 1.3.1); they are readable only by the doctors who wrote them and their institutions, and their key is destroyed three years after this erasure',
  },
  {
    what: 'Appointment records without personal details: date and time, doctor, status and its changes, fee',
    why:
      'The Telemedicine Practice Guidelines 2020 (3.7.1) ask doctors to keep the records of each teleconsultation (three years, the period of the Indian Medical Council Regulations 2002, 1.3.1); your name, contact details, reason for visit and the reasons given are erased from them',
  },
  {
    what: "For a doctor, the prescriptions they issued, with their qualification, registration number and medical council as printed on them (their name is erased)",
    why:
      "The Telemedicine Practice Guidelines 2020 ask every prescription to carry the prescriber's registration; a prescription is part of the patient's clinical records, kept as above, and its public check still says it is genuine",
  },
  {
    what: 'Consent records: which version of the privacy notice was agreed to or withdrawn, and when',
    why: 'Proof that personal data was processed with consent (Digital Personal Data Protection Act 2023, section 6(10)); they hold no personal details',
  },
  {
    what: 'The record of this erasure: when it happened and who asked',
    why: 'Proof that the request was carried out (Digital Personal Data Protection Act 2023, section 12); it holds no personal details',
  },
];

export const ERASURE_TEXTS = {
  /** Signing in to an erased account (its owner, or an administrator, erased it). */
  accountErased: "This account was erased at its owner's request and can no longer be signed in to",
  alreadyErased: 'This account was already erased',
  ownAccountViaAdmin: 'Use POST /api/v1/users/me/erasure to erase your own account',
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
