import { toLocalSlotFields, type DoctorAppointment, type PatientAppointment, type PendingAppointment } from '@telemed/contracts';
import type { AppointmentDoc } from '../projections';

/** Renders appointments into the seeds' wire shapes, in the caller's time zone. */

function appointmentSlot(doc: AppointmentDoc, zone: string) {
  return { slot_id: doc.slot_id, ...toLocalSlotFields(doc.start, doc.end, zone), start_at: doc.start };
}

/** Where a moved appointment was before its last move (an instant, as slot.start_at), and by whom; null if never moved. */
function movedFrom(doc: AppointmentDoc): DoctorAppointment['moved_from'] {
  return doc.moved_from && doc.moved_by ? { start_at: doc.moved_from, by: doc.moved_by } : null;
}

/** The doctor's offer of other times still open, each time in the caller's zone. */
function proposalView(doc: AppointmentDoc, zone: string): PatientAppointment['proposal'] {
  if (!doc.proposal) return null;
  return {
    slots: doc.proposal.slots.map((slot) => ({ slot_id: slot.slot_id, ...toLocalSlotFields(slot.start, slot.end, zone), start_at: slot.start })),
    expires_at: doc.proposal.expires_at,
  };
}

/** A completed consultation's follow-up offer (issue 35), and the follow-up booked on it; null when none. */
function followUpView(doc: AppointmentDoc): PatientAppointment['follow_up'] {
  if (doc.status !== 'completed' || doc.follow_up_until === undefined || doc.follow_up_until === null) return null;
  return { until: doc.follow_up_until, fee: doc.follow_up_fee ?? 0, booked_appointment_id: doc.follow_up_booked ?? null };
}

/** The earlier consultation a follow-up was booked on; null for any other appointment. */
function followUpOf(doc: AppointmentDoc): DoctorAppointment['follow_up_of'] {
  return doc.follow_up_of && doc.follow_up_of_start ? { appointment_id: doc.follow_up_of, start_at: doc.follow_up_of_start } : null;
}

export function patientAppointmentView(doc: AppointmentDoc, zone: string): PatientAppointment {
  return {
    appointment_id: doc.appointment_id,
    status: doc.status,
    notes: doc.notes,
    created_at: doc.created_at,
    rejection_reason: doc.rejection_reason,
    status_reason: doc.status_reason,
    cancellation_reason: doc.cancellation_reason,
    doctor: { doctor_id: doc.doctor_id, name: doc.doctor_name, specialty: doc.doctor_specialty },
    patient: { name: doc.patient_name, phone_number: doc.patient_phone },
    consultation_held: doc.consultation_held,
    reschedules: doc.reschedules ?? 0,
    proposal: proposalView(doc, zone),
    follow_up: followUpView(doc),
    follow_up_of: followUpOf(doc),
    slot: appointmentSlot(doc, zone),
  };
}

export function doctorAppointmentView(doc: AppointmentDoc, zone: string): DoctorAppointment {
  return {
    appointment_id: doc.appointment_id,
    patient_id: doc.patient_id,
    patient_name: doc.patient_name,
    notes: doc.notes,
    status: doc.status,
    status_reason: doc.status_reason,
    rejection_reason: doc.rejection_reason,
    created_at: doc.created_at,
    consultation_fee: doc.consultation_fee,
    consultation_held: doc.consultation_held,
    moved_from: movedFrom(doc),
    proposal: proposalView(doc, zone),
    follow_up_of: followUpOf(doc),
    slot: appointmentSlot(doc, zone),
  };
}

export function pendingAppointmentView(doc: AppointmentDoc, zone: string): PendingAppointment {
  return {
    appointment_id: doc.appointment_id,
    patient_id: doc.patient_id,
    patient_name: doc.patient_name,
    patient_phone: doc.patient_phone,
    notes: doc.notes,
    created_at: doc.created_at,
    moved_from: movedFrom(doc),
    follow_up_of: followUpOf(doc),
    slot: appointmentSlot(doc, zone),
  };
}
