/** The availability calendar's rules, apart from its looks: weeks from Sunday, 33 half-hour rows from 06:00. */

import { SLOT_DAY_FIRST_START, SLOT_MINUTES, SLOT_ROWS_PER_DAY } from '@telemed/contracts/constants';

export { SLOT_MINUTES };
export const ROWS = SLOT_ROWS_PER_DAY;
export const FIRST_ROW_MINUTES = Number(SLOT_DAY_FIRST_START.slice(0, 2)) * 60 + Number(SLOT_DAY_FIRST_START.slice(3, 5));

export type SlotKey = string; // `${YYYY-MM-DD}-${row}`

export const keyOf = (date: string, row: number): SlotKey => `${date}-${row}`;
export function parseKey(key: SlotKey): { date: string; row: number } {
  return { date: key.slice(0, 10), row: Number(key.slice(11)) };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** HH:MM:SS of a row's start (row 0 is 06:00:00). */
export function rowTime(row: number, offsetMinutes = 0): string {
  const minutes = FIRST_ROW_MINUTES + row * SLOT_MINUTES + offsetMinutes;
  return `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}:00`;
}

/** '6:00 AM', '10:00 PM'. */
export function rowLabel(row: number): string {
  const minutes = FIRST_ROW_MINUTES + row * SLOT_MINUTES;
  const hour = Math.floor(minutes / 60);
  return `${((hour + 11) % 12) + 1}:${pad(minutes % 60)} ${hour < 12 ? 'AM' : 'PM'}`;
}

/** Today's date in a zone, as YYYY-MM-DD. */
export function todayIn(zone: string, now = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(now);
}

/** Adds days to a YYYY-MM-DD date (calendar arithmetic, no time zone involved). */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** The Sunday that starts the week holding `date`. */
export function weekStart(date: string): string {
  return addDays(date, -new Date(`${date}T00:00:00Z`).getUTCDay());
}

export function weekDays(start: string): string[] {
  return Array.from({ length: 7 }, (_, i) => addDays(start, i));
}

/** Minutes since midnight now in a zone. */
function minutesNowIn(zone: string, now: Date): number {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(now);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return get('hour') * 60 + get('minute');
}

/** A slot is past when it starts before now (in the doctor's zone). */
export function isPast(date: string, row: number, zone: string, now = new Date()): boolean {
  const today = todayIn(zone, now);
  if (date !== today) return date < today;
  return FIRST_ROW_MINUTES + row * SLOT_MINUTES <= minutesNowIn(zone, now);
}

/** The keys between two rows of one day, inclusive, in either order. */
export function rangeKeys(date: string, fromRow: number, toRow: number): SlotKey[] {
  const [a, b] = fromRow <= toRow ? [fromRow, toRow] : [toRow, fromRow];
  return Array.from({ length: b - a + 1 }, (_, i) => keyOf(date, a + i));
}

/**
 * A finished selection gesture: a single cell toggles; a range adds all its cells. Past and booked cells never
 * change.
 */
export function applySelection(selected: ReadonlySet<SlotKey>, keys: SlotKey[], locked: (key: SlotKey) => boolean): Set<SlotKey> {
  const next = new Set(selected);
  const open = keys.filter((k) => !locked(k));
  if (keys.length === 1) {
    const [key] = open;
    if (key) {
      if (next.has(key)) next.delete(key);
      else next.add(key);
    }
    return next;
  }
  for (const key of open) next.add(key);
  return next;
}

/** The seeds' payload of set_availability_v2. */
export function toPayload(keys: Iterable<SlotKey>, timezone: string) {
  return {
    timezone,
    slots: [...keys].sort().map((key) => {
      const { date, row } = parseKey(key);
      return { slot_date: date, start_time: rowTime(row), end_time: rowTime(row, SLOT_MINUTES) };
    }),
  };
}

/** The key of a slot from the server's local fields, or null when it is not on the calendar's grid. */
export function keyFromSlot(slot: { slot_date: string; start_time: string }): SlotKey | null {
  const [h, m] = slot.start_time.split(':').map(Number) as [number, number];
  const minutes = h * 60 + m - FIRST_ROW_MINUTES;
  if (minutes < 0 || minutes % SLOT_MINUTES !== 0 || minutes / SLOT_MINUTES >= ROWS) return null;
  return keyOf(slot.slot_date, minutes / SLOT_MINUTES);
}

/** Where the current-time marker goes: today's row that contains now, and how far into it; null outside the day's rows. */
export function nowMarker(zone: string, now = new Date()): { date: string; row: number; fraction: number } | null {
  const offset = minutesNowIn(zone, now) - FIRST_ROW_MINUTES;
  if (offset < 0 || offset >= ROWS * SLOT_MINUTES) return null;
  return { date: todayIn(zone, now), row: Math.floor(offset / SLOT_MINUTES), fraction: (offset % SLOT_MINUTES) / SLOT_MINUTES };
}
