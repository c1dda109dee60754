import { ERASED_VALUE, type AccessResource, type RecordsResponse } from '@telemed/contracts';
import { Subjects, type AccessAudit, type AccessClaims, type ReadStore } from '@telemed/platform';
import type { Request } from 'express';
import type { AppointmentDoc, UserDoc } from '../projections';
import type { ConsentDoc } from '../consents/projection';
import { institutionLookups } from '../institutions/lookups';
import { PRESCRIPTIONS, PRESCRIPTION_FILES, type PrescriptionDoc, type PrescriptionFileDoc, type RecordFileDoc } from './projection';

/**
 * Health data is never kept by a cache: not by a proxy, nor in the browser's disk cache of a shared clinic computer
 * after its user signed out (a JSON answer with an ETag is otherwise stored and revalidated).
 */
export const NO_STORE = { 'Cache-Control': 'private, no-store' };
const SEEN = new Set(['confirmed', 'completed']);

/** The patient's records this doctor wrote: their e-prescriptions and prescription files (never the patient's reports). */
export function authoredOnly(records: RecordsResponse, doctorId: string): RecordsResponse {
  return { ...records, reports: [], prescriptions: records.prescriptions.filter((p) => p.doctor_id === doctorId), prescription_files: records.prescription_files.filter((p) => p.doctor_id === doctorId) };
}

/** Who may read a patient's records and why, and the record of each such read on the patient's access log. */
export function recordAccessRules(readStore: ReadStore, audit: AccessAudit) {
  const appointments = readStore.collection<AppointmentDoc>('appointments');
  const prescriptions = readStore.collection<PrescriptionDoc>(PRESCRIPTIONS);
  const prescriptionFiles = readStore.collection<PrescriptionFileDoc>(PRESCRIPTION_FILES);
  const users = readStore.collection<UserDoc>('users');
  const consents = readStore.collection<ConsentDoc>('consents');
  const institutions = institutionLookups(readStore);

  /**
   * May this caller read this patient's records, and why? The patient themself; a doctor with a confirmed or
   * completed appointment with them (care); a clinic's doctors allowed to read its appointments, for a patient with a
   * confirmed or completed appointment their institution's console lists (institution_appointments: its doctor was its
   * doctor when it was requested) with a doctor still its member (institution audit): a request alone, rejected or
   * never answered, opens the patient's records to the doctor's institution no more than to the doctor. A clinic's
   * members who are not doctors (its administrators, front desk) manage its appointments, never read clinical records:
   * they have no need to know. And all of it rests on the patient's consent: once they have withdrawn every agreement
   * to the notice, nobody reads their records for care or audit (the authors keep reading what they wrote: AUTHOR).
   * Anyone else: null.
   *
   * The work starts from the caller, never from the patient: the doctor's own appointments with them (the
   * (patient_id, doctor_id) index), or the patient's entries in the caller's institutions' lists. So a caller with no tie to the
   * patient is answered without a read of anything of theirs, in a time that does not follow how much they hold.
   */
  async function accessTo(auth: AccessClaims, patientId: string): Promise<{ purpose: 'care' | 'institution_audit'; institution: { id: string; role: string } | null } | 'self' | null> {
    if (auth.user_id === patientId) return 'self';
    // An erased patient's records kept under the legal hold are their authors' alone (AUTHOR below): nobody cares for
    // an erased person any more, and no institution audits them.
    if (auth.account_type !== 'doctor') return null;
    if ((await users.get(patientId))?.erased_at) return null;
    const seen = (await appointments.find({ patient_id: patientId, doctor_id: auth.user_id, status: { $in: [...SEEN] } }, { limit: 1 })).length > 0;
    // The institution's console decides which appointments it reads (institution_appointments); the records follow it.
    const through = seen ? null : await institutions.institutionReadingPatient(auth.user_id, patientId);
    if (!seen && !through) return null;
    if (!(await consentsToCare(patientId))) return null;
    return seen ? { purpose: 'care', institution: null } : { purpose: 'institution_audit', institution: through };
  }

  /** Whether the patient holds an agreement to the notice they have not withdrawn (any version: a new notice asks them again before their next booking, it does not shut their doctors out). */
  async function consentsToCare(patientId: string): Promise<boolean> {
    return (await consents.find({ user_id: patientId, withdrawn_at: null }, { limit: 1 })).length > 0;
  }

  type Access = Exclude<Awaited<ReturnType<typeof accessTo>>, 'self' | null>;

  /**
   * The doctor who wrote a record reads it whatever became of the appointment (cancelled, its patient erased): they keep
   * it under the Guidelines' hold. Only their own records, and only on their own access.
   */
  const AUTHOR: Access = { purpose: 'care', institution: null };

  /** Whether this doctor wrote any of the patient's records (an e-prescription or a prescription file). */
  async function wroteFor(auth: AccessClaims, patientId: string): Promise<boolean> {
    if (auth.account_type !== 'doctor') return false;
    const mine = { patient_id: patientId, doctor_id: auth.user_id };
    const [files, issued] = await Promise.all([prescriptionFiles.find(mine, { limit: 1 }), prescriptions.find(mine, { limit: 1 })]);
    return files.length + issued.length > 0;
  }

  /** The read of another person's records, on their access log (before the answer leaves). */
  async function auditRead(auth: AccessClaims, req: Request, patientId: string, access: Access, resource: AccessResource, route: string, items: string[]) {
    const subjects = new Subjects();
    for (const item of items.length ? items : ['records']) subjects.add(patientId, item);
    await audit.record(auth, req, { purpose: access.purpose, resource, route, institution: access.institution, subjects });
  }

  async function recordAccess(auth: AccessClaims, req: Request, patientId: string, resource: AccessResource, route: string, items: string[]) {
    const access = await accessTo(auth, patientId);
    if (!access) return null;
    if (access !== 'self') await auditRead(auth, req, patientId, access, resource, route, items);
    return access;
  }

  /**
   * A file erased with its patient's data, asked for by a doctor who had an appointment with that patient (the erasure
   * closed it, so whatever its status now: who could read the file before holds its link): it is gone, not unknown.
   * Anyone else learns nothing of it (404).
   */
  async function erasedFileOnceTheirs(auth: AccessClaims, file: RecordFileDoc): Promise<boolean> {
    if (file.file_name !== ERASED_VALUE || auth.account_type !== 'doctor') return false;
    return (await appointments.find({ patient_id: file.patient_id, doctor_id: auth.user_id }, { limit: 1 })).length > 0;
  }

  /** The doctor who uploaded a prescription file's file (a report's files are the patient's: null). */
  async function authorOf(file: RecordFileDoc): Promise<string | null> {
    return file.kind === 'prescription_file' ? ((await prescriptionFiles.get(file.record_id))?.doctor_id ?? null) : null;
  }

  return { accessTo, AUTHOR, wroteFor, auditRead, recordAccess, erasedFileOnceTheirs, authorOf };
}
