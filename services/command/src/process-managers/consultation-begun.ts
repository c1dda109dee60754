import type { EventStore } from '@telemed/platform';
import { consultationStarted } from '../consultations/service';

/**
 * Whether the appointment's consultation has begun (its stream starts with ConsultationStarted at the first join, which
 * may be before the start time): what the closers hand the appointment's decision (appointment.ts,
 * leftToItsConsultation). An appointment whose start time has come needs no look: the decision leaves it anyway.
 * A join now records AppointmentConsultationBegun on the appointment's own stream first, which is what keeps a join
 * and a cancel from both winning (consultations/service.ts, factsForJoin); this look is for consultations begun before
 * the appointment recorded it.
 */
export async function consultationBegun(eventStore: EventStore, appointment: { appointment_id: string; start: string }, now: Date): Promise<boolean> {
  if (new Date(appointment.start).getTime() <= now.getTime()) return true;
  return consultationStarted(eventStore, appointment.appointment_id);
}
