import { z } from '../zod';
import {
  appointmentCommandResponseSchema,
  appointmentHistorySchema,
  appointmentStatusSchema,
  cancelAppointmentSchema,
  doctorAppointmentSchema,
  myAppointmentsQuerySchema,
  patientAppointmentSchema,
  pendingAppointmentSchema,
  rejectAppointmentSchema,
  rejectQuerySchema,
  requestAppointmentSchema,
  timezoneQuerySchema,
} from '../api';
import { defineRoutes } from './define';

const idParams = z.object({ id: z.string().min(1).max(64) });
const rescheduleRequestSchema = z.strictObject({ slot_id: z.number().int().positive() }).openapi('RescheduleRequest');
const proposeTimesSchema = z
  .strictObject({ slot_ids: z.array(z.number().int().positive()).min(1).max(3).refine((ids) => new Set(ids).size === ids.length, 'Each time may be offered once') })
  .openapi('ProposeTimesRequest');
const rescheduleResultSchema = z
  .object({ appointment_id: z.string(), status: appointmentStatusSchema, slot_id: z.number().int(), start: z.iso.datetime(), end: z.iso.datetime() })
  .openapi('RescheduleResult');

export const appointmentsRoutes = defineRoutes({
  requestAppointment: {
    summary: 'Request an appointment in an available slot',
    tags: ['appointments'],
    body: requestAppointmentSchema,
    response: appointmentCommandResponseSchema,
    successStatus: 201,
    errors: [403, 404, 409, 410],
  },
  approveAppointment: {
    summary: 'Approve a requested appointment (its doctor only)',
    tags: ['appointments'],
    params: idParams,
    response: appointmentCommandResponseSchema,
    errors: [404, 409],
  },
  rejectAppointment: {
    summary: 'Reject a requested appointment (its doctor only); the reason may come as query or body',
    tags: ['appointments'],
    params: idParams,
    query: rejectQuerySchema,
    body: rejectAppointmentSchema.optional(),
    response: appointmentCommandResponseSchema,
    errors: [404, 409, 410],
  },
  cancelAppointment: {
    summary: 'Cancel a requested or confirmed appointment (its patient or doctor) whose consultation has not begun',
    tags: ['appointments'],
    params: idParams,
    body: cancelAppointmentSchema.optional(),
    response: appointmentCommandResponseSchema,
    errors: [404, 409, 410],
  },
  rescheduleAppointment: {
    summary:
      "Move a requested or confirmed appointment to another open slot of the same doctor (its patient): the new slot is held before the old one is released; a confirmed appointment waits for the doctor's approval again. Refused (409) inside the notice (2 hours before the start) and after 2 moves",
    tags: ['appointments'],
    params: idParams,
    body: rescheduleRequestSchema,
    response: rescheduleResultSchema,
    errors: [404, 409, 410],
  },
  proposeTimes: {
    summary:
      'Offer the patient up to three other times for a requested or confirmed appointment (its doctor only): open slots of the doctor still to come, none held; a new offer replaces an earlier one. Unanswered by the appointment\'s start (or the earliest offered start) it is cancelled',
    tags: ['appointments'],
    params: idParams,
    body: proposeTimesSchema,
    response: appointmentCommandResponseSchema,
    errors: [404, 409],
  },
  acceptProposedTime: {
    summary: 'Take one of the times the doctor offered (its patient only): the appointment moves there (held before the old slot is freed) and is confirmed',
    tags: ['appointments'],
    params: idParams,
    body: rescheduleRequestSchema,
    response: rescheduleResultSchema,
    errors: [403, 404, 409, 410],
  },
  declineProposedTimes: {
    summary: 'Decline the times the doctor offered (its patient only): the appointment is cancelled, as the doctor\'s change',
    tags: ['appointments'],
    params: idParams,
    response: appointmentCommandResponseSchema,
    errors: [404, 409],
  },
  markPatientAbsent: {
    summary:
      'Close a confirmed appointment as a no-show of its patient (its doctor only), once 10 minutes of it have passed with the patient never having joined its consultation; after its end and a grace of 15 minutes the system does this itself',
    tags: ['appointments'],
    params: idParams,
    response: appointmentCommandResponseSchema,
    errors: [404, 409],
  },
  listMyAppointments: {
    summary: "My appointments: a patient's list, or a doctor's (upcoming requested and confirmed by default)",
    tags: ['appointments'],
    query: myAppointmentsQuerySchema,
    response: z.union([z.array(patientAppointmentSchema), z.array(doctorAppointmentSchema)]),
    errors: [503],
  },
  listPendingAppointments: {
    summary: "The doctor's requests awaiting approval, oldest first",
    tags: ['appointments'],
    query: timezoneQuerySchema,
    response: z.array(pendingAppointmentSchema),
    errors: [503],
  },
  getAppointmentHistory: {
    summary: "Every event of an appointment with who did it and when (its participants, and its doctor's institution)",
    tags: ['appointments'],
    params: idParams,
    response: appointmentHistorySchema,
    errors: [404, 503],
  },
});
