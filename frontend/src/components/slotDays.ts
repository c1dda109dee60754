import type { Slot } from '../features/patient/types';
import english from '../i18n/catalogues/en/patient.json';
import { browserZone } from '../lib/time';

/** Open slots grouped by their local day, for day tabs instead of one long list of times. */
export interface SlotDay {
  /** YYYY-MM-DD in the caller's zone (the slot's slot_date). */
  date: string;
  /** 'Today', 'Tomorrow' or a short weekday ('Wed'). */
  label: string;
  /** '12 May'. */
  dayMonth: string;
  /** 'Wednesday, 12 May', for screen readers and headings. */
  longLabel: string;
  slots: Slot[];
}

/** The language a strip of days is written in: its `Intl` locale and its words for today and tomorrow. */
export interface DayWords {
  locale: string;
  today: string;
  tomorrow: string;
}

/** English's (the SlotPicker gives the chosen language's). */
export const ENGLISH_DAY_WORDS: DayWords = { locale: 'en-IN', today: english['patient.today'], tomorrow: english['patient.tomorrow'] };

export type PartOfDay = 'Morning' | 'Afternoon' | 'Evening';

/** The message naming each part of the day. */
export const PART_OF_DAY_MESSAGES = {
  Morning: 'patient.morning',
  Afternoon: 'patient.afternoon',
  Evening: 'patient.evening',
} as const satisfies Record<PartOfDay, keyof typeof english>;

/** The calendar date of an instant in a zone, as YYYY-MM-DD. */
export function localDate(date: Date, zone = browserZone()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(date);
}

/** A calendar date `days` after another (YYYY-MM-DD; no zone). */
export function addDays(isoDate: string, days: number): string {
  const d = new Date(`${isoDate}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

const format = (isoDate: string, locale: string, options: Intl.DateTimeFormatOptions) =>
  new Intl.DateTimeFormat(locale, { ...options, timeZone: 'UTC' }).format(new Date(`${isoDate}T00:00:00Z`));

/** Groups slots (already upcoming and sorted) by slot_date, in order; `today` is the caller's local date. */
export function groupSlotsByDay(slots: Slot[], today: string, words: DayWords = ENGLISH_DAY_WORDS): SlotDay[] {
  const days = new Map<string, Slot[]>();
  for (const slot of slots) {
    const list = days.get(slot.slot_date);
    if (list) list.push(slot);
    else days.set(slot.slot_date, [slot]);
  }
  const tomorrow = addDays(today, 1);
  return [...days.entries()].map(([date, daySlots]) => ({
    date,
    label: date === today ? words.today : date === tomorrow ? words.tomorrow : format(date, words.locale, { weekday: 'short' }),
    dayMonth: format(date, words.locale, { day: 'numeric', month: 'short' }),
    longLabel: format(date, words.locale, { weekday: 'long', day: 'numeric', month: 'long' }),
    slots: daySlots,
  }));
}

/** Morning before noon, afternoon before 5 pm, then evening (by the slot's local start time). */
export function partOfDay(startTime: string): PartOfDay {
  const hour = Number(startTime.slice(0, 2));
  if (hour < 12) return 'Morning';
  if (hour < 17) return 'Afternoon';
  return 'Evening';
}

/** A day's slots split into morning, afternoon and evening, leaving out empty parts. */
export function splitByPartOfDay(slots: Slot[]): Array<{ part: PartOfDay; slots: Slot[] }> {
  const parts: PartOfDay[] = ['Morning', 'Afternoon', 'Evening'];
  return parts.map((part) => ({ part, slots: slots.filter((s) => partOfDay(s.start_time) === part) })).filter((p) => p.slots.length > 0);
}
