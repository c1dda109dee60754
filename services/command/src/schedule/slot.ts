import { match } from 'ts-pattern';
import { API_TEXTS, conflict, notFound, type DomainEventOf } from '@telemed/contracts';
import type { Decider } from '../decider';

/** One bookable slot: the consistency boundary that keeps a slot from ever being booked twice. */
export type SlotEvent = DomainEventOf<'SlotOpened' | 'SlotWithdrawn' | 'SlotReserved' | 'SlotReleased' | 'SlotHeld' | 'SlotHoldReleased'>;

export interface SlotTimes {
  slot_id: number;
  doctor_id: string;
  start: string;
  end: string;
}

export type SlotState =
  | { status: 'unpublished' }
  /** `hold`: held for a patient on the waitlist until a time (issue 35); only they may book it until then. */
  | { status: 'open'; slot: SlotTimes; hold?: { patient_id: string; until: string } }
  | { status: 'withdrawn'; slot: SlotTimes }
  | { status: 'reserved'; slot: SlotTimes; appointment_id: string; patient_id: string };

export type SlotCommand =
  | { type: 'OpenSlot'; data: SlotTimes }
  | { type: 'WithdrawSlot'; data: { slot_id: number } }
  /** `doctor_accepting`: the handler's finding that the slot's doctor takes bookings (active, not deactivated by an institution). */
  | { type: 'ReserveSlot'; data: { slot_id: number; appointment_id: string; patient_id: string; now: Date; doctor_accepting: boolean } }
  | { type: 'ReleaseSlot'; data: { appointment_id: string; reason: 'rejected' | 'cancelled' | 'expired' | 'orphaned' | 'rescheduled' } }
  /** Hold an open slot still to come, held by nobody (or a hold past its time), for a patient on the waitlist until `until`. */
  | { type: 'HoldForWaitlist'; data: { patient_id: string; until: Date; now: Date } }
  /** End this patient's hold before it was booked. */
  | { type: 'ReleaseHold'; data: { patient_id: string; reason: 'declined' | 'expired' | 'left' } };

/** A hold still in force at `now` (one past its time holds nothing, whether or not its end was recorded). */
export function activeHold(state: SlotState, now: Date): { patient_id: string; until: string } | null {
  return state.status === 'open' && state.hold && new Date(state.hold.until).getTime() > now.getTime() ? state.hold : null;
}

export function evolveSlot(state: SlotState, event: SlotEvent): SlotState {
  return match(event)
    .with({ type: 'SlotOpened' }, ({ data }): SlotState => ({
      status: 'open',
      slot: { slot_id: data.slot_id, doctor_id: data.doctor_id, start: data.start, end: data.end },
    }))
    .with({ type: 'SlotWithdrawn' }, (): SlotState => (state.status === 'unpublished' ? state : { status: 'withdrawn', slot: state.slot }))
    .with({ type: 'SlotReserved' }, ({ data }): SlotState =>
      state.status === 'unpublished'
        ? state
        : { status: 'reserved', slot: state.slot, appointment_id: data.appointment_id, patient_id: data.patient_id },
    )
    .with({ type: 'SlotReleased' }, (): SlotState => (state.status === 'unpublished' ? state : { status: 'open', slot: state.slot }))
    .with({ type: 'SlotHeld' }, ({ data }): SlotState => (state.status === 'open' ? { ...state, hold: { patient_id: data.patient_id, until: data.until } } : state))
    .with({ type: 'SlotHoldReleased' }, (): SlotState => (state.status === 'open' ? { status: 'open', slot: state.slot } : state))
    .exhaustive();
}

export const slotDecider: Decider<SlotState, SlotCommand, SlotEvent> = {
  initialState: () => ({ status: 'unpublished' }),
  evolve: evolveSlot,
  decide: (command, state) =>
    match(command)
      .with({ type: 'OpenSlot' }, ({ data }): SlotEvent[] =>
        state.status === 'unpublished' || state.status === 'withdrawn' ? [{ type: 'SlotOpened', data }] : [],
      )
      .with({ type: 'WithdrawSlot' }, ({ data }): SlotEvent[] =>
        state.status === 'open' ? [{ type: 'SlotWithdrawn', data: { slot_id: data.slot_id, doctor_id: state.slot.doctor_id } }] : [],
      )
      .with({ type: 'ReserveSlot' }, ({ data }): SlotEvent[] => {
        if (state.status === 'unpublished') throw notFound(API_TEXTS.slotNotFound);
        if (state.status === 'reserved') {
          throw conflict(state.patient_id === data.patient_id ? API_TEXTS.slotAlreadyRequested : API_TEXTS.slotTaken);
        }
        if (state.status === 'withdrawn') throw conflict(API_TEXTS.slotNotAvailable);
        if (new Date(state.slot.start).getTime() <= data.now.getTime()) throw conflict(API_TEXTS.slotPast);
        // Held for someone on the waitlist: not available to anyone else meanwhile (who it is stays theirs to know).
        const held = activeHold(state, data.now);
        if (held && held.patient_id !== data.patient_id) throw conflict(API_TEXTS.slotNotAvailable);
        if (!data.doctor_accepting) throw conflict(API_TEXTS.doctorNotAccepting);
        return [
          {
            type: 'SlotReserved',
            data: {
              slot_id: data.slot_id,
              doctor_id: state.slot.doctor_id,
              appointment_id: data.appointment_id,
              patient_id: data.patient_id,
              start: state.slot.start,
              end: state.slot.end,
            },
          },
        ];
      })
      .with({ type: 'ReleaseSlot' }, ({ data }): SlotEvent[] =>
        state.status === 'reserved' && state.appointment_id === data.appointment_id
          ? [
              {
                type: 'SlotReleased',
                data: { slot_id: state.slot.slot_id, doctor_id: state.slot.doctor_id, appointment_id: data.appointment_id, reason: data.reason },
              },
            ]
          : [],
      )
      .with({ type: 'HoldForWaitlist' }, ({ data }): SlotEvent[] => {
        if (state.status !== 'open' || activeHold(state, data.now) || new Date(state.slot.start).getTime() <= data.until.getTime()) return [];
        return [{ type: 'SlotHeld', data: { slot_id: state.slot.slot_id, doctor_id: state.slot.doctor_id, patient_id: data.patient_id, until: data.until.toISOString() } }];
      })
      .with({ type: 'ReleaseHold' }, ({ data }): SlotEvent[] =>
        state.status === 'open' && state.hold?.patient_id === data.patient_id
          ? [{ type: 'SlotHoldReleased', data: { slot_id: state.slot.slot_id, doctor_id: state.slot.doctor_id, patient_id: data.patient_id, reason: data.reason } }]
          : [],
      )
      .exhaustive(),
};
