import { z } from './zod';

/**
 * An appointment's status as the API shows it. `no_show`: a confirmed appointment a party never came to (issue 35);
 * its `status_reason` says who: 'patient_absent', 'doctor_absent', 'both_absent'.
 */
export const appointmentStatusSchema = z.enum(['requested', 'confirmed', 'rejected', 'cancelled', 'completed', 'no_show']);
export type AppointmentStatus = z.infer<typeof appointmentStatusSchema>;
