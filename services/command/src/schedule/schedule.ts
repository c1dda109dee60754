import type { DomainEventOf } from '@telemed/contracts';
import type { Decider } from '../decider';
import { PublishedSlots } from './published-slots';

/**
 * The doctor's schedule: a record of every availability change, written before the slot streams it touches,
 * so that the set of slot ids a doctor ever published is always a superset of the truth in the slot streams.
 */
export type ScheduleEvent = DomainEventOf<'AvailabilitySet'>;
export type ScheduleState = { published: PublishedSlots };
export type ScheduleCommand = {
  type: 'RecordAvailability';
  data: { doctor_id: string; timezone: string; opened: number[]; withdrawn: number[] };
};

/**
 * `evolve` adds the opened ids to the state it is given and returns it: each event costs what it opened, never a copy
 * of everything published before (which made a year of daily saves quadratic). The state belongs to one fold, which
 * starts from `initialState()`; nothing else holds it. `decide` needs no history at all.
 *
 * The fold itself still reads every AvailabilitySet of the doctor (one small event per save); a snapshot of the
 * future published ids would make loading independent of history too.
 */
export const scheduleDecider: Decider<ScheduleState, ScheduleCommand, ScheduleEvent> = {
  initialState: () => ({ published: new PublishedSlots() }),
  evolve: (state, event) => {
    for (const id of event.data.opened) state.published.add(id);
    return state;
  },
  decide: (command) =>
    command.data.opened.length === 0 && command.data.withdrawn.length === 0 ? [] : [{ type: 'AvailabilitySet', data: command.data }],
};

/** Slot ids the doctor has published that start after `now`. */
export function futurePublishedSlots(state: ScheduleState, now: Date): number[] {
  return state.published.startingAfter(now);
}
