import type { DomainEventOf } from '@telemed/contracts';
import type { Decider } from '../decider';
import { slotStartFromId } from './slot-id';

/**
 * The doctor's schedule: a record of every availability change, written before the slot streams it touches,
 * so that the set of slot ids a doctor ever published is always a superset of the truth in the slot streams.
 */
export type ScheduleEvent = DomainEventOf<'AvailabilitySet'>;
export type ScheduleState = { published: ReadonlySet<number> };
export type ScheduleCommand = {
  type: 'RecordAvailability';
  data: { doctor_id: string; timezone: string; opened: number[]; withdrawn: number[] };
};

export const scheduleDecider: Decider<ScheduleState, ScheduleCommand, ScheduleEvent> = {
  initialState: () => ({ published: new Set() }),
  evolve: (state, event) => ({ published: new Set([...state.published, ...event.data.opened]) }),
  decide: (command) =>
    command.data.opened.length === 0 && command.data.withdrawn.length === 0 ? [] : [{ type: 'AvailabilitySet', data: command.data }],
};

export function futurePublishedSlots(state: ScheduleState, now: Date): number[] {
  return [...state.published].filter((id) => slotStartFromId(id).getTime() > now.getTime());
}
