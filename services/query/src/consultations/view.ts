import type { ConsultationView } from '@telemed/contracts';
import type { AppointmentDoc } from '../projections';
import type { ConsultationDoc } from './projection';

const ROLE_DISPLAY = { patient: 'Patient', doctor: 'Healthcare Provider' } as const;

/** The consultation as its participants see it: the state, the server's times, and who is present now. */
export function consultationView(appointment: AppointmentDoc, doc: ConsultationDoc | null, now: Date): ConsultationView {
  const server_time = now.toISOString();
  if (!doc) {
    return {
      appointment_id: appointment.appointment_id,
      status: 'waiting',
      provider: null,
      room: null,
      started_at: null,
      ends_at: null,
      ended_at: null,
      ended_by: null,
      auto_ended: false,
      duration_seconds: 0,
      participants: [],
      server_time,
    };
  }
  // Past its limit the call is over, even before the process manager has recorded it.
  const overdue = doc.status === 'active' && Date.parse(doc.ends_at) <= now.getTime();
  const ended = doc.status === 'ended' || overdue;
  const endedAt = doc.ended_at ?? (overdue ? doc.ends_at : null);
  const until = endedAt ? Date.parse(endedAt) : now.getTime();
  return {
    appointment_id: doc.appointment_id,
    status: ended ? 'ended' : 'active',
    provider: doc.provider,
    room: doc.room,
    started_at: doc.started_at,
    ends_at: doc.ends_at,
    ended_at: endedAt,
    ended_by: doc.ended_by,
    auto_ended: doc.auto_ended || overdue,
    duration_seconds: Math.max(0, Math.floor((until - Date.parse(doc.started_at)) / 1000)),
    participants: doc.participants.map((p) => ({
      user_id: p.user_id,
      name: p.name,
      role: p.role,
      role_display_name: ROLE_DISPLAY[p.role],
      present: p.present && !ended,
      joined_at: p.joined_at,
      left_at: p.left_at ?? (ended ? endedAt : null),
    })),
    server_time,
  };
}
