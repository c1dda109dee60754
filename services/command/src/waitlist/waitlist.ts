import { match } from 'ts-pattern';
import { API_TEXTS, WAITLIST_MAX_DAYS, conflict, invalid, notFound, type DomainEventOf } from '@telemed/contracts';
import type { Decider } from '../decider';

/**
 * A patient's place on a doctor's waitlist (issue 35), one stream per patient and doctor: joined for a stretch of days,
 * offered a freed slot at a time (held for them on the slot's own stream), and closed when they leave, book or the
 * stretch ends. Which place is offered a slot first is the log's order of the joins (the offers' process manager).
 */
export type WaitlistEvent = DomainEventOf<'WaitlistJoined' | 'WaitlistLeft' | 'WaitlistOfferMade' | 'WaitlistOfferEnded'>;

export interface Offer {
  slot_id: number;
  start: string;
  end: string;
  until: string;
}

export type WaitlistState =
  | { status: 'none' }
  | {
      status: 'waiting' | 'offered' | 'closed';
      doctor_id: string;
      patient_id: string;
      from: string;
      to: string;
      offer: Offer | null;
      /** Slots this place was offered and let go (declined or unanswered): never offered to it again. */
      passed: readonly number[];
    };

export type WaitlistCommand =
  /** `today`: the patient's calendar day now, in their zone (the days are theirs). */
  | { type: 'JoinWaitlist'; data: { doctor_id: string; patient_id: string; from: string; to: string; timezone: string; today: string } }
  | { type: 'LeaveWaitlist'; data: { reason: 'left' | 'ended' } }
  /** Offer a slot already held for this patient on its stream: only while waiting, and never one they let go. */
  | { type: 'OfferSlot'; data: { slot_id: number; start: string; end: string; until: Date } }
  /** The patient declined the offer, or its time passed (`now`): they wait on, the slot goes to the next place. */
  | { type: 'EndOffer'; data: { slot_id: number; reason: 'declined' | 'expired'; now: Date } }
  /** The patient booked the offered slot: their place is done. */
  | { type: 'RecordBooked'; data: { slot_id: number } };

const DAY_MS = 86_400_000;
const dayNumber = (isoDate: string) => Date.parse(`${isoDate}T00:00:00Z`) / DAY_MS;

export function evolveWaitlist(state: WaitlistState, event: WaitlistEvent): WaitlistState {
  return match(event)
    .with({ type: 'WaitlistJoined' }, ({ data }): WaitlistState => ({
      status: 'waiting',
      doctor_id: data.doctor_id,
      patient_id: data.patient_id,
      from: data.from,
      to: data.to,
      offer: null,
      passed: [],
    }))
    .with({ type: 'WaitlistLeft' }, (): WaitlistState => (state.status === 'none' ? state : { ...state, status: 'closed', offer: null }))
    .with({ type: 'WaitlistOfferMade' }, ({ data }): WaitlistState =>
      state.status === 'none' ? state : { ...state, status: 'offered', offer: { slot_id: data.slot_id, start: data.start, end: data.end, until: data.until } },
    )
    .with({ type: 'WaitlistOfferEnded' }, ({ data }): WaitlistState =>
      state.status === 'none' ? state : { ...state, status: 'waiting', offer: null, passed: [...state.passed, data.slot_id] },
    )
    .exhaustive();
}

export const waitlistDecider: Decider<WaitlistState, WaitlistCommand, WaitlistEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve: evolveWaitlist,
  decide: (command, state) =>
    match(command)
      .with({ type: 'JoinWaitlist' }, ({ data }): WaitlistEvent[] => {
        if (state.status === 'waiting' || state.status === 'offered') throw conflict(API_TEXTS.waitlistAlready);
        const [from, to, today] = [dayNumber(data.from), dayNumber(data.to), dayNumber(data.today)];
        if (!(from >= today) || !(to >= from) || to - from + 1 > WAITLIST_MAX_DAYS) throw invalid(API_TEXTS.waitlistDaysInvalid(String(WAITLIST_MAX_DAYS)));
        return [{ type: 'WaitlistJoined', data: { doctor_id: data.doctor_id, patient_id: data.patient_id, from: data.from, to: data.to, timezone: data.timezone } }];
      })
      .with({ type: 'LeaveWaitlist' }, ({ data }): WaitlistEvent[] => {
        if (state.status === 'none') throw notFound(API_TEXTS.waitlistNotFound);
        if (state.status === 'closed') return [];
        return [{ type: 'WaitlistLeft', data: { doctor_id: state.doctor_id, patient_id: state.patient_id, reason: data.reason } }];
      })
      .with({ type: 'OfferSlot' }, ({ data }): WaitlistEvent[] => {
        if (state.status !== 'waiting' || state.passed.includes(data.slot_id)) return [];
        const { doctor_id, patient_id } = state;
        return [{ type: 'WaitlistOfferMade', data: { doctor_id, patient_id, slot_id: data.slot_id, start: data.start, end: data.end, until: data.until.toISOString() } }];
      })
      .with({ type: 'EndOffer' }, ({ data }): WaitlistEvent[] => {
        if (state.status === 'none') throw notFound(API_TEXTS.waitlistNotFound);
        if (state.status !== 'offered' || state.offer?.slot_id !== data.slot_id) {
          if (data.reason === 'declined') throw conflict(API_TEXTS.waitlistNoOffer);
          return [];
        }
        if (data.reason === 'expired' && new Date(state.offer.until).getTime() > data.now.getTime()) return [];
        return [{ type: 'WaitlistOfferEnded', data: { doctor_id: state.doctor_id, patient_id: state.patient_id, slot_id: data.slot_id, reason: data.reason } }];
      })
      .with({ type: 'RecordBooked' }, ({ data }): WaitlistEvent[] =>
        state.status === 'offered' && state.offer?.slot_id === data.slot_id
          ? [{ type: 'WaitlistLeft', data: { doctor_id: state.doctor_id, patient_id: state.patient_id, reason: 'booked' } }]
          : [],
      )
      .exhaustive(),
};
