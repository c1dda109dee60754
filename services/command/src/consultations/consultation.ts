import { match } from 'ts-pattern';
import {
  API_TEXTS,
  CONSULTATION_TEXTS,
  ERROR_CODES,
  conflict,
  notFound,
  type DomainEventOf,
  type EventData,
  type VideoProviderKind,
} from '@telemed/contracts';
import type { Decider } from '../decider';

export type ConsultationEvent = DomainEventOf<
  | 'ConsultationStarted'
  | 'ConsultationJoined'
  | 'ConsultationLeft'
  | 'ConsultationEnded'
  | 'ConsultationAutoEnded'
  | 'ConsultationMessagePosted'
  | 'VideoProviderEventReceived'
>;

/** What the consultation's rules need of its appointment (read from the appointment's own stream). */
export interface AppointmentFacts {
  appointment_id: string;
  patient_id: string;
  doctor_id: string;
  start: string;
  end: string;
  status: 'requested' | 'confirmed' | 'rejected' | 'cancelled' | 'expired' | 'completed' | 'no_show';
}

export interface Presence {
  role: 'patient' | 'doctor';
  /** The latest connection: a later join replaces it, and only it may leave. */
  connection_id: string;
  present: boolean;
}

type Call = Omit<EventData<'ConsultationStarted'>, never> & {
  participants: Record<string, Presence>;
  /** The video provider's webhooks already recorded (by their event id): a redelivery is recorded once. */
  webhook_ids: ReadonlySet<string>;
  /** Who the video provider says is in the room now, with their session id ('' when it did not say). */
  provider_sessions: Readonly<Record<string, string>>;
};

export type ConsultationState =
  | { status: 'none' }
  | ({ status: 'active' } & Call)
  | ({ status: 'ended'; auto_ended: boolean } & Call);

/** The settings the rules use (from the configuration): when joining opens, how long a call may last. */
export interface ConsultationLimits {
  earlyJoinMs: number;
  maxMs: number;
}

export type ConsultationCommand =
  | {
      type: 'JoinConsultation';
      data: {
        actor_id: string;
        appointment: AppointmentFacts | null;
        connection_id: string;
        provider: VideoProviderKind;
        room: string;
        now: Date;
        limits: ConsultationLimits;
      };
    }
  | { type: 'LeaveConsultation'; data: { actor_id: string; appointment: AppointmentFacts | null; connection_id: string | null } }
  | { type: 'EndConsultation'; data: { actor_id: string; appointment: AppointmentFacts | null; now: Date } }
  | { type: 'AutoEndConsultation'; data: { now: Date } }
  /** The notifier saw this participant's call socket drop and not come back within the grace (peer to peer). */
  | { type: 'RecordParticipantDisconnected'; data: { user_id: string; connection_id: string; now: Date } }
  | { type: 'PostConsultationMessage'; data: { actor_id: string; appointment: AppointmentFacts | null; message_id: string; text: string; now: Date } }
  | {
      type: 'RecordVideoProviderEvent';
      data: {
        provider_event_id: string;
        event: string;
        room: string;
        participant_identity: string | null;
        participant_sid?: string | null;
        created_at: string | null;
      };
    };

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** Who has ever joined this consultation (a participant's entry stays after they leave or the call ends). */
export function joinedOf(state: ConsultationState): { patient: boolean; doctor: boolean } {
  const roles = state.status === 'none' ? [] : Object.values(state.participants).map((presence) => presence.role);
  return { patient: roles.includes('patient'), doctor: roles.includes('doctor') };
}

export function evolveConsultation(state: ConsultationState, event: ConsultationEvent): ConsultationState {
  if (event.type === 'ConsultationStarted') return { status: 'active', ...event.data, participants: {}, webhook_ids: new Set(), provider_sessions: {} };
  if (state.status === 'none') return state;
  return match(event)
    .with({ type: 'ConsultationJoined' }, ({ data }): ConsultationState => ({
      ...state,
      participants: { ...state.participants, [data.user_id]: { role: data.role, connection_id: data.connection_id, present: true } },
    }))
    .with({ type: 'ConsultationLeft' }, ({ data }): ConsultationState => {
      const current = state.participants[data.user_id];
      if (!current || current.connection_id !== data.connection_id) return state;
      return { ...state, participants: { ...state.participants, [data.user_id]: { ...current, present: false } } };
    })
    .with({ type: 'ConsultationEnded' }, (): ConsultationState => ({ ...state, status: 'ended', auto_ended: false, participants: absent(state.participants) }))
    .with({ type: 'ConsultationAutoEnded' }, (): ConsultationState => ({ ...state, status: 'ended', auto_ended: true, participants: absent(state.participants) }))
    .with({ type: 'VideoProviderEventReceived' }, ({ data }): ConsultationState => ({
      ...state,
      webhook_ids: new Set([...state.webhook_ids, data.provider_event_id]),
      provider_sessions: providerSessionsAfter(state.provider_sessions, data),
    }))
    .with({ type: 'ConsultationMessagePosted' }, () => state)
    .exhaustive();
}

/** Who the room service has in the room after one of its webhooks (joins and leaves of participants; the rest change nothing). */
function providerSessionsAfter(
  sessions: Readonly<Record<string, string>>,
  data: { event: string; participant_identity: string | null; participant_sid?: string | null },
): Readonly<Record<string, string>> {
  const identity = data.participant_identity;
  if (!identity) return sessions;
  if (data.event === 'participant_joined') return { ...sessions, [identity]: data.participant_sid ?? '' };
  if (data.event === 'participant_left' && isCurrentSession(sessions, identity, data.participant_sid)) {
    const { [identity]: _left, ...rest } = sessions;
    return rest;
  }
  return sessions;
}

/** A webhook about this identity's current session in the room (or one that names no session, as older ones did). */
function isCurrentSession(sessions: Readonly<Record<string, string>>, identity: string, sid: string | null | undefined): boolean {
  const current = sessions[identity];
  return !sid || current === undefined || current === '' || current === sid;
}

function absent(participants: Record<string, Presence>): Record<string, Presence> {
  return Object.fromEntries(Object.entries(participants).map(([id, p]) => [id, { ...p, present: false }]));
}

/** The caller's role in the appointment; anyone else is told it does not exist. */
function roleOf(appointment: AppointmentFacts | null, actorId: string): 'patient' | 'doctor' {
  if (appointment?.patient_id === actorId) return 'patient';
  if (appointment?.doctor_id === actorId) return 'doctor';
  throw notFound(API_TEXTS.appointmentNotFound);
}

const overdue = (state: ConsultationState, now: Date) => state.status === 'active' && new Date(state.ends_at).getTime() <= now.getTime();

/** A call that is running and within its limit; otherwise the reason it is not. */
function running(state: ConsultationState, now: Date) {
  if (state.status === 'none') throw conflict(CONSULTATION_TEXTS.notStarted);
  if (state.status === 'ended' || overdue(state, now)) throw conflict(CONSULTATION_TEXTS.ended);
  return state;
}

export const consultationDecider: Decider<ConsultationState, ConsultationCommand, ConsultationEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve: evolveConsultation,
  // Chat text is the patient's health data: encrypted under the patient's key.
  parties: (state) => (state.status === 'none' ? {} : { patient: state.patient_id }),
  decide: (command, state) =>
    match(command)
      .with({ type: 'JoinConsultation' }, ({ data }): ConsultationEvent[] => {
        const role = roleOf(data.appointment, data.actor_id);
        const appointment = data.appointment!;
        if (state.status === 'ended' || overdue(state, data.now)) throw conflict(CONSULTATION_TEXTS.ended);
        if (appointment.status !== 'confirmed') {
          throw conflict(CONSULTATION_TEXTS.appointmentNotConfirmed(appointment.status === 'expired' ? 'cancelled' : appointment.status), ERROR_CODES.appointmentNotConfirmed);
        }
        const now = data.now.getTime();
        const joined = (replaced: string | null): ConsultationEvent => ({
          type: 'ConsultationJoined',
          data: { appointment_id: appointment.appointment_id, user_id: data.actor_id, role, connection_id: data.connection_id, replaced_connection_id: replaced },
        });
        if (state.status === 'active') {
          const previous = state.participants[data.actor_id];
          return [joined(previous?.present ? previous.connection_id : null)];
        }
        const opensAt = new Date(appointment.start).getTime() - data.limits.earlyJoinMs;
        if (now < opensAt) throw conflict(CONSULTATION_TEXTS.notOpenYet(iso(opensAt), Math.round(data.limits.earlyJoinMs / 60_000)));
        if (now >= new Date(appointment.end).getTime()) throw conflict(CONSULTATION_TEXTS.timePassed);
        return [
          {
            type: 'ConsultationStarted',
            data: {
              appointment_id: appointment.appointment_id,
              patient_id: appointment.patient_id,
              doctor_id: appointment.doctor_id,
              provider: data.provider,
              room: data.room,
              started_at: iso(now),
              ends_at: iso(now + data.limits.maxMs),
            },
          },
          joined(null),
        ];
      })
      .with({ type: 'LeaveConsultation' }, ({ data }): ConsultationEvent[] => {
        roleOf(data.appointment, data.actor_id);
        if (state.status !== 'active') return [];
        const current = state.participants[data.actor_id];
        // A tab replaced by a newer join leaving (its unload) does not take the newer connection away.
        if (!current?.present || (data.connection_id && data.connection_id !== current.connection_id)) return [];
        return [
          {
            type: 'ConsultationLeft',
            data: { appointment_id: state.appointment_id, user_id: data.actor_id, connection_id: current.connection_id, reason: 'left' },
          },
        ];
      })
      .with({ type: 'RecordParticipantDisconnected' }, ({ data }): ConsultationEvent[] => {
        if (state.status !== 'active' || overdue(state, data.now)) return [];
        const current = state.participants[data.user_id];
        // Only the connection whose socket dropped: a rejoin since (a reload, another device) stays present.
        if (!current?.present || current.connection_id !== data.connection_id) return [];
        return [
          {
            type: 'ConsultationLeft',
            data: { appointment_id: state.appointment_id, user_id: data.user_id, connection_id: current.connection_id, reason: 'disconnected' },
          },
        ];
      })
      .with({ type: 'EndConsultation' }, ({ data }): ConsultationEvent[] => {
        roleOf(data.appointment, data.actor_id);
        if (state.status === 'ended') return [];
        const call = running(state, data.now);
        return [{ type: 'ConsultationEnded', data: { appointment_id: call.appointment_id, ended_by: data.actor_id } }];
      })
      .with({ type: 'AutoEndConsultation' }, ({ data }): ConsultationEvent[] =>
        state.status === 'active' && overdue(state, data.now)
          ? [{ type: 'ConsultationAutoEnded', data: { appointment_id: state.appointment_id, ends_at: state.ends_at } }]
          : [],
      )
      .with({ type: 'PostConsultationMessage' }, ({ data }): ConsultationEvent[] => {
        roleOf(data.appointment, data.actor_id);
        const call = running(state, data.now);
        return [
          { type: 'ConsultationMessagePosted', data: { appointment_id: call.appointment_id, message_id: data.message_id, sender_id: data.actor_id, text: data.text } },
        ];
      })
      .with({ type: 'RecordVideoProviderEvent' }, ({ data }): ConsultationEvent[] => {
        if (state.status === 'none') return [];
        // LiveKit retries a webhook with the same id; and a participant it already reported in this session joining
        // again is the same fact: each is recorded once.
        if (state.webhook_ids.has(data.provider_event_id)) return [];
        const identity = data.participant_identity;
        const sid = data.participant_sid ?? null;
        if (data.event === 'participant_joined' && identity && identity in state.provider_sessions && (!sid || state.provider_sessions[identity] === sid)) return [];
        const recorded: ConsultationEvent = {
          type: 'VideoProviderEventReceived',
          data: {
            appointment_id: state.appointment_id,
            provider: 'livekit',
            provider_event_id: data.provider_event_id,
            event: data.event,
            room: data.room,
            participant_identity: identity,
            ...(sid ? { participant_sid: sid } : {}),
            created_at: data.created_at,
          },
        };
        // The room service saw them go (a closed tab, a lost network): they are no longer shown as present. A late
        // leave of an older session (they rejoined since, with a new one) does not take the newer one away.
        const gone =
          data.event === 'participant_left' && identity && isCurrentSession(state.provider_sessions, identity, sid) ? state.participants[identity] : undefined;
        if (state.status !== 'active' || !gone?.present) return [recorded];
        return [
          recorded,
          {
            type: 'ConsultationLeft',
            data: { appointment_id: state.appointment_id, user_id: identity!, connection_id: gone.connection_id, reason: 'provider_reported' },
          },
        ];
      })
      .exhaustive(),
};
