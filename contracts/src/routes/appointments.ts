import { z } from '../zod';
import { appointmentCommandResponseSchema, cancelAppointmentSchema, rejectAppointmentSchema, rejectQuerySchema, requestAppointmentSchema } from '../api';
import { defineRoutes } from './define';

const idParams = z.object({ id: z.string().min(1).max(64) });

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
});
