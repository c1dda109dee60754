import type { AccessLogEntry, AccessPurpose, AccessResource, KeptRecord } from '@telemed/contracts';
import { englishText } from '../../lib/englishText';
import type { MessageId, Translate } from '../../i18n/useT';

/**
 * The privacy texts the server sends in English (the access log's what and why, the erasure's legal hold), as the
 * account catalogue's messages: their English is the contracts' text word for word (account.texts.test.ts), so a text
 * that came as the catalogue's English is shown in the reader's language, and any other text as it came.
 */

export const RESOURCE_MESSAGES: Readonly<Record<AccessResource, MessageId>> = {
  appointment_history: 'account.resourceAppointmentHistory',
  doctor_appointments: 'account.resourceDoctorAppointments',
  pending_requests: 'account.resourcePendingRequests',
  institution_appointments: 'account.resourceInstitutionAppointments',
  institution_staff: 'account.resourceInstitutionStaff',
  institution_doctors: 'account.resourceInstitutionDoctors',
  user_accounts: 'account.resourceUserAccounts',
  consultation_messages: 'account.resourceConsultationMessages',
  consultation: 'account.resourceConsultation',
  clinical_records: 'account.resourceClinicalRecords',
  consultation_notes: 'account.resourceConsultationNotes',
  prescription: 'account.resourcePrescription',
  record_file: 'account.resourceRecordFile',
};

export const PURPOSE_MESSAGES: Readonly<Record<AccessPurpose, MessageId>> = {
  care: 'account.purposeCare',
  institution_audit: 'account.purposeInstitutionAudit',
  institution_administration: 'account.purposeInstitutionAdministration',
  platform_administration: 'account.purposePlatformAdministration',
};

export interface KeptMessages {
  what: MessageId;
  why: MessageId;
}

/** Every item an erasure may keep (the contracts' legal-hold lists, of patients, doctors and admins). */
export const KEPT_MESSAGES = {
  patientClinical: { what: 'account.keptPatientClinicalWhat', why: 'account.keptPatientClinicalWhy' },
  patientAppointments: { what: 'account.keptPatientAppointmentsWhat', why: 'account.keptPatientAppointmentsWhy' },
  doctorIssued: { what: 'account.keptDoctorIssuedWhat', why: 'account.keptDoctorIssuedWhy' },
  doctorAppointments: { what: 'account.keptDoctorAppointmentsWhat', why: 'account.keptDoctorAppointmentsWhy' },
  doctorProfessional: { what: 'account.keptDoctorProfessionalWhat', why: 'account.keptDoctorProfessionalWhy' },
  consents: { what: 'account.keptConsentsWhat', why: 'account.keptConsentsWhy' },
  erasureRecord: { what: 'account.keptErasureRecordWhat', why: 'account.keptErasureRecordWhy' },
} as const satisfies Record<string, KeptMessages>;

/**
 * A text from the server in the reader's language: the message's, when the text is that message's English (an entry of
 * a newer server, whose kind this screen does not know, has no message and shows as it came).
 */
function translated(t: Translate, id: MessageId | undefined, text: string): string {
  return id !== undefined && englishText(id) === text ? t(id) : text;
}

/** What was read, in the reader's language. */
export function accessedWhat(t: Translate, entry: AccessLogEntry): string {
  return translated(t, RESOURCE_MESSAGES[entry.what.resource], entry.what.description);
}

/** Why it was read, in the reader's language. */
export function accessedWhy(t: Translate, entry: AccessLogEntry): string {
  return translated(t, PURPOSE_MESSAGES[entry.why], entry.why_label);
}

/** One item the erasure kept, and why, in the reader's language. */
export function keptText(t: Translate, kept: KeptRecord): KeptRecord {
  const known = Object.values(KEPT_MESSAGES).find((m) => englishText(m.what) === kept.what && englishText(m.why) === kept.why);
  return known ? { what: t(known.what), why: t(known.why) } : kept;
}
