import { match } from 'ts-pattern';
import { API_TEXTS, conflict, notFound, type DomainEventOf } from '@telemed/contracts';
import type { Decider } from '../decider';

/** One bookable slot: the consistency boundary that keeps a slot from ever being booked twice. */
export type SlotEvent = DomainEventOf<'SlotOpened' | 'SlotWithdrawn' | 'SlotReserved' | 'SlotReleased'>;

export interface SlotTimes {
  slot_id: number;
  doctor_id: string;
  start: string;
  end: string;
}

export type SlotState =
  | { status: 'unpublished' }
  | { status: 'open'; slot: SlotTimes }
  | { status: 'withdrawn'; slot: SlotTimes }
  | { status: 'reserved'; slot: SlotTimes; appointment_id: string; patient_id: string };

export type SlotCommand =
  | { type: 'OpenSlot'; data: SlotTimes }
  | { type: 'WithdrawSlot'; data: { slot_id: number } }
  /** `doctor_accepting`: the handler's finding that the slot's doctor takes bookings (active, not deactivated by an institution). */
  | { type: 'ReserveSlot'; data: { slot_id: number; appointment_id: string; patient_id: string; now: Date; doctor_accepting: boolean } }
  | { type: 'ReleaseSlot'; data: { appointment_id: string; reason: 'rejected' | 'cancelled' | 'expired' | 'orphaned' | 'rescheduled' } };

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
      .exhaustive(),
};
