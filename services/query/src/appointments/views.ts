import {
  DEFAULT_TIMEZONE,
  isValidTimezone,
  toLocalSlotFields,
  type Doctor,
  type DoctorAppointment,
  type PatientAppointment,
  type PendingAppointment,
  type Slot,
} from '@telemed/contracts';
import { RequestValidationError } from '@telemed/platform';
import type { AppointmentDoc, DoctorDoc, SlotDoc } from '../projections';

/** Renders read-model documents into the seeds' wire shapes, in the caller's time zone. */

export function timezoneOf(query: { timezone_str?: string }): string {
  const zone = query.timezone_str || DEFAULT_TIMEZONE;
  if (!isValidTimezone(zone)) {
    throw new RequestValidationError([{ loc: ['query', 'timezone_str'], msg: 'Unknown IANA time zone', type: 'invalid_timezone' }]);
  }
  return zone;
}

export function slotView(slot: Pick<SlotDoc, 'slot_id' | 'start' | 'end'>, zone: string, isAvailable: boolean): Slot {
  return {
    slot_id: slot.slot_id,
    ...toLocalSlotFields(slot.start, slot.end, zone),
    is_available: isAvailable,
    start_at: slot.start,
    end_at: slot.end,
  };
}

/** A doctor's practice fields, as every view of a doctor shows them. */
export function doctorFields(doc: DoctorDoc) {
  return {
    specialty: doc.specialty,
    qualification: doc.qualification,
    consultation_fee: doc.consultation_fee,
    appointment_duration_minutes: doc.appointment_duration_minutes,
    registration_number: doc.registration_number,
    medical_council: doc.medical_council,
    city: doc.city ?? null,
  };
}

/** A doctor as lists show them; `accepting_bookings` from the read models (bookableDoctors), as the public page says it. */
export function doctorView(doc: DoctorDoc, accepting_bookings: boolean): Doctor {
  return { doctor_id: doc._id, name: doc.name, phone_number: doc.phone_number, ...doctorFields(doc), accepting_bookings };
}

function appointmentSlot(doc: AppointmentDoc, zone: string) {
  return { slot_id: doc.slot_id, ...toLocalSlotFields(doc.start, doc.end, zone), start_at: doc.start };
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
    slot: appointmentSlot(doc, zone),
  };
}
