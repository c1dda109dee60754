import { API_TEXTS, ERROR_CODES, RECORD_TEXTS, conflict, forbidden, notFound } from '@telemed/contracts';
import type { AppointmentFacts } from '../consultations/consultation';

/**
 * Records belong to an appointment that was confirmed (and may have taken place); not to a request, rejection or
 * cancellation. A consultation that took place keeps its records writable whatever became of the appointment: a cancel
 * can no longer follow a begun consultation, but the log keeps those recorded before that rule (`consultationHeld`: the
 * consultation's stream has started).
 */
export function openForRecords(appointment: AppointmentFacts, consultationHeld: boolean): void {
  if (appointment.status === 'confirmed' || appointment.status === 'completed') return;
  if (appointment.status === 'cancelled' && consultationHeld) return;
  throw conflict(RECORD_TEXTS.appointmentNotOpen(appointment.status), ERROR_CODES.appointmentNotConfirmed);
}

/** The appointment's doctor, or a refusal: its patient is told why (403), anyone else that it does not exist (404). */
export function asTheDoctor(appointment: AppointmentFacts | null, actorId: string, refusal: string = RECORD_TEXTS.notYourAppointment): AppointmentFacts {
  if (!appointment || (appointment.doctor_id !== actorId && appointment.patient_id !== actorId)) throw notFound(API_TEXTS.appointmentNotFound);
  if (appointment.doctor_id !== actorId) throw forbidden(refusal);
  return appointment;
}
