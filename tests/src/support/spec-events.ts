import type { EventData } from '@telemed/contracts';
import { event, freshId, type EventOptions, type SpecEvent } from './projection-spec';

/**
 * Events for projection specs with sensible defaults: a case names what it is about (ids, the field it changes) and
 * takes the rest as written here. Each builder's data is checked by the event's schema (projection-spec.ts `event`).
 */

export const registered = (d: Partial<EventData<'UserRegistered'>> & { user_id: string }, o?: EventOptions) =>
  event('UserRegistered', { email: `${d.user_id}@example.in`, name: `Name of ${d.user_id}`, account_type: 'patient', phone_number: '+919800000001', ...d }, o);

export const doctorRegistered = (d: Partial<EventData<'DoctorRegistered'>> & { doctor_id: string }, o?: EventOptions) =>
  event(
    'DoctorRegistered',
    {
      doctor_number: 7,
      specialty: 'Cardiology',
      qualification: 'MBBS, MD',
      consultation_fee: 500,
      appointment_duration_minutes: 30,
      registration_number: 'MMC-2011-4471',
      medical_council: 'Maharashtra Medical Council',
      city: 'Pune',
      ...d,
    },
    o,
  );

export const slotOpened = (d: Partial<EventData<'SlotOpened'>> & { slot_id: number; doctor_id: string }, o?: EventOptions) =>
  event('SlotOpened', { start: '2026-03-10T04:30:00.000Z', end: '2026-03-10T05:00:00.000Z', ...d }, o);

export const slotReserved = (d: Partial<EventData<'SlotReserved'>> & { slot_id: number; doctor_id: string; appointment_id: string; patient_id: string }, o?: EventOptions) =>
  event('SlotReserved', { start: '2026-03-10T04:30:00.000Z', end: '2026-03-10T05:00:00.000Z', ...d }, o);

export const appointmentRequested = (
  d: Partial<EventData<'AppointmentRequested'>> & { appointment_id: string; doctor_id: string; patient_id: string },
  o?: EventOptions,
) => event('AppointmentRequested', { slot_id: 101, start: '2026-03-10T04:30:00.000Z', end: '2026-03-10T05:00:00.000Z', notes: 'Chest pain after climbing stairs', ...d }, o);

export const staffAdded = (
  d: Partial<EventData<'InstitutionStaffAdded'>> & { institution_id: string; staff_id: string; user_id: string },
  o?: EventOptions,
) =>
  event(
    'InstitutionStaffAdded',
    {
      name: `Name of ${d.user_id}`,
      email: `${d.user_id}@clinic.example.in`,
      phone: '+919800000002',
      role: 'DOCTOR',
      role_title: 'Consultant',
      department: 'Cardiology',
      specialization: 'Interventional cardiology',
      is_institution_admin: false,
      ...d,
    },
    o,
  );

export const consultationStarted = (
  d: Partial<EventData<'ConsultationStarted'>> & { appointment_id: string; patient_id: string; doctor_id: string },
  o?: EventOptions,
) =>
  event('ConsultationStarted', { provider: 'p2p', room: `room-${d.appointment_id}`, started_at: '2026-03-10T04:30:00.000Z', ends_at: '2026-03-10T05:00:00.000Z', ...d }, o);

export const notesSaved = (
  d: Partial<EventData<'ConsultationNotesSaved'>> & { appointment_id: string; patient_id: string; doctor_id: string },
  o?: EventOptions,
) =>
  event(
    'ConsultationNotesSaved',
    {
      is_draft: false,
      patient_name: 'Asha Rao',
      patient_ref: 'OPD-2231',
      chief_complaint: 'Chest pain on exertion',
      clinical_assessment: 'Suspected stable angina',
      treatment_plan: 'ECG and lipid profile',
      follow_up_instructions: 'Review with reports in a week',
      additional_notes: null,
      priority_level: 'high',
      follow_up_required: 'routine',
      template: 'general_consultation',
      ...d,
    },
    o,
  );

export const prescriptionIssued = (
  d: Partial<EventData<'PrescriptionIssued'>> & { prescription_id: string; appointment_id: string; patient_id: string; doctor_id: string },
  o?: EventOptions,
) =>
  event(
    'PrescriptionIssued',
    {
      verification_code: `verify-${d.prescription_id}`,
      consultation_mode: 'video',
      consultation_kind: 'first',
      doctor_name: 'Dr. Vikram Shah',
      doctor_qualification: 'MBBS, MD',
      doctor_registration_number: 'MMC-2011-4471',
      doctor_medical_council: 'Maharashtra Medical Council',
      doctor_contact: '+919800000009',
      patient_name: 'Asha Rao',
      patient_age: '42',
      patient_gender: 'female',
      diagnosis: 'Stable angina',
      advice: 'Avoid exertion',
      follow_up: 'In two weeks',
      lines: '[]',
      ...d,
    },
    o,
  );

export const fileStored = (d: Partial<EventData<'RecordFileStored'>> & { file_id: string; patient_id: string; record_id: string }, o?: EventOptions) =>
  event('RecordFileStored', { kind: 'report', blob_id: `blob-${d.file_id}`, file_name: 'ecg.pdf', content_type: 'application/pdf', size: '2048', sha256: 'c'.repeat(64), ...d }, o);

export const reportUploaded = (d: Partial<EventData<'MedicalReportUploaded'>> & { report_id: string; patient_id: string; file_ids: string[] }, o?: EventOptions) =>
  event(
    'MedicalReportUploaded',
    {
      appointment_id: null,
      report_type: 'lab',
      report_date: '2026-02-20',
      medical_facility: 'Ruby Hall Clinic',
      doctor_name: null,
      report_summary: 'Lipid profile',
      additional_notes: null,
      ...d,
    },
    o,
  );

export const prescriptionFileUploaded = (
  d: Partial<EventData<'PrescriptionFileUploaded'>> & { record_id: string; appointment_id: string; patient_id: string; doctor_id: string; file_id: string },
  o?: EventOptions,
) => event('PrescriptionFileUploaded', { patient_name: 'Asha Rao', patient_ref: null, medication_summary: 'Aspirin 75 mg', additional_notes: null, ...d }, o);

export const erased = (userId: string, d: Partial<EventData<'PersonalDataErased'>> = {}, o?: EventOptions) =>
  event('PersonalDataErased', { user_id: userId, requested_by: 'self', kept: [], ...d }, o);

/** A patient and a doctor with fresh ids, for the many cases about one appointment between them. */
export const people = () => ({ patient: freshId('patient'), doctor: freshId('doctor') });

export type { SpecEvent };
