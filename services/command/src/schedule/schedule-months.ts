import { AVAILABILITY_HORIZON_DAYS, streams } from '@telemed/contracts';
import type { EventStore } from '@telemed/platform';
import { readStream } from '../decider';
import { futurePublishedSlots, scheduleDecider, type ScheduleState } from './schedule';
import { slotStartFromId } from './slot-id';

/**
 * A doctor's schedule is kept in one stream per UTC month of the slots' starts ("closing the books"): a save folds
 * the months from today to the availability horizon (at most four streams of that month's saves), so its cost
 * follows the doctor's future and the change, never the years of saves behind it.
 */
export type ScheduleFold = { state: ScheduleState; revision: number | null };

export const monthOfSlot = (slotId: number) => slotStartFromId(slotId).toISOString().slice(0, 7);

/** The UTC months a slot published from `now` on can start in. */
export function monthsAhead(now: Date): string[] {
  const months: string[] = [];
  const last = new Date(now.getTime() + AVAILABILITY_HORIZON_DAYS * 86_400_000).toISOString().slice(0, 7);
  for (let d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)); ; d.setUTCMonth(d.getUTCMonth() + 1)) {
    const month = d.toISOString().slice(0, 7);
    if (month > last) return months;
    months.push(month);
  }
}

export interface FutureSchedule {
  /** Ids of the doctor's published slots that start after now. */
  known: number[];
  /** The fold of each month stream ahead, to hand to handleCommand when recording into it. */
  months: Map<string, ScheduleFold>;
}

export async function loadFutureSchedule(eventStore: EventStore, doctorId: string, now: Date): Promise<FutureSchedule> {
  const ahead = monthsAhead(now);
  const [legacy, ...folds] = await Promise.all([
    // Saves made before the monthly streams: it no longer grows, so reading it costs the same on every save.
    readStream(eventStore, streams.schedule(doctorId), scheduleDecider),
    ...ahead.map((month) => readStream(eventStore, streams.scheduleMonth(doctorId, month), scheduleDecider)),
  ]);
  const known = new Set(futurePublishedSlots(legacy!.state, now));
  for (const fold of folds) for (const id of futurePublishedSlots(fold.state, now)) known.add(id);
  return { known: [...known], months: new Map(ahead.map((month, i) => [month, folds[i]!])) };
}
