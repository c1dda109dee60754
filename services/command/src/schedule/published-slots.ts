import { slotStartFromId } from './slot-id';

const DAY_MS = 86_400_000;
const dayOf = (slotId: number) => Math.floor(slotStartFromId(slotId).getTime() / DAY_MS);

/**
 * The slot ids a doctor ever published, bucketed by the UTC day of their start (an id encodes its start). Adding is
 * O(1) per id whatever the history, and the future ones are found by walking the days from today to the last one,
 * never the past: a save costs the change and the doctor's future, not the years behind them.
 *
 * Mutable on purpose: it is owned by one fold of the schedule stream (see scheduleDecider.evolve).
 */
export class PublishedSlots {
  private readonly byDay = new Map<number, Set<number>>();
  private lastDay = Number.NEGATIVE_INFINITY;

  add(slotId: number): void {
    const day = dayOf(slotId);
    let ids = this.byDay.get(day);
    if (!ids) this.byDay.set(day, (ids = new Set()));
    ids.add(slotId);
    if (day > this.lastDay) this.lastDay = day;
  }

  has(slotId: number): boolean {
    return this.byDay.get(dayOf(slotId))?.has(slotId) ?? false;
  }

  /** Ids whose slot starts after `now`, by day. */
  startingAfter(now: Date): number[] {
    const result: number[] = [];
    const nowMs = now.getTime();
    for (let day = Math.floor(nowMs / DAY_MS); day <= this.lastDay; day += 1) {
      for (const id of this.byDay.get(day) ?? []) if (slotStartFromId(id).getTime() > nowMs) result.push(id);
    }
    return result;
  }
}
