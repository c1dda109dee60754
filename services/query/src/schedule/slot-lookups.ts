import { instantRange } from '@telemed/contracts';
import type { ReadStore } from '@telemed/platform';
import type { DoctorSlotRangeDoc, SlotDoc } from '../projections';
import { doctorDayKey, SLOT_RANGES } from './slots-projection';

const DAY_MS = 86_400_000;
const utcDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export interface SlotRange {
  /** Slots starting strictly after this instant (ISO). */
  after: string;
  /** ...and strictly before this one; absent: up to the doctor's last slot. */
  before?: string;
  statuses: Array<SlotDoc['status']>;
}

/**
 * A doctor's slots in a time range, soonest first: one indexed find per UTC day of the range (doctor_day), so the cost
 * follows the days asked for and the slots returned, never the doctor's history. Without an end, the walk stops at
 * the doctor's last slot (availability reaches at most the horizon, so that is a few weeks of days); with one, there too.
 */
export function slotLookups(readStore: ReadStore) {
  const slots = readStore.collection<SlotDoc>('slots');
  const ranges = readStore.collection<DoctorSlotRangeDoc>(SLOT_RANGES);
  return {
    async inRange(doctorId: string, range: SlotRange): Promise<SlotDoc[]> {
      const lastStart = (await ranges.get(doctorId))?.last_start;
      if (lastStart === undefined) return [];
      // The bounds as stored starts are written (instants.ts): `after` and `before` may carry milliseconds.
      const start = instantRange({ gt: range.after, lt: range.before });
      const end = start.$lt !== undefined && start.$lt < lastStart ? start.$lt : lastStart;
      const found: SlotDoc[] = [];
      const lastDay = utcDate(Date.parse(end));
      for (let ms = Date.parse(range.after); ; ms += DAY_MS) {
        const day = utcDate(ms);
        if (day > lastDay) break;
        // status as $in, never an equality: the day's index must be the one that narrows the search.
        const docs = await slots.find({ doctor_day: doctorDayKey(doctorId, day), status: { $in: range.statuses }, start }, { sort: { start: 1 } });
        for (const doc of docs) found.push(doc);
      }
      return found;
    },
  };
}
