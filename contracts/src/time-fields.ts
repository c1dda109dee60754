import { z } from './zod';

/**
 * Dates, times, zones and slot ids as the edge accepts them. Each is checked for what it means, not only its
 * shape, so nothing out of range reaches date arithmetic (slot ids count minutes from 2020-01-01).
 */

/** The calendar the product works in: slot ids start on this date; nothing is scheduled past the last one. */
export const CALENDAR_FIRST_DATE = '2020-01-01';
export const CALENDAR_LAST_DATE = '2099-12-31';

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const WALL_TIME = /^([01]\d|2[0-3]):([0-5]\d):([0-5]\d)$/;
// Area/Location names (and single names such as UTC): letters, digits, `_`, `-`, `+`; no offsets or paths.
const IANA_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+){0,2}$/;

/** Is `YYYY-MM-DD` a real day (no 2030-02-30)? */
export function isRealDate(value: string): boolean {
  const match = ISO_DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** A real calendar day between CALENDAR_FIRST_DATE and CALENDAR_LAST_DATE. */
export const calendarDateSchema = z
  .string()
  .regex(ISO_DATE, 'Expected YYYY-MM-DD')
  .refine(isRealDate, 'Not a real calendar date')
  .refine((d) => d >= CALENDAR_FIRST_DATE && d <= CALENDAR_LAST_DATE, `Dates run from ${CALENDAR_FIRST_DATE} to ${CALENDAR_LAST_DATE}`)
  .openapi({ example: '2030-01-02', format: 'date' });

/** A wall-clock time `HH:MM:SS` of a day (00:00:00–23:59:59). */
export const wallTimeSchema = z.string().regex(WALL_TIME, 'Expected HH:MM:SS (00:00:00 to 23:59:59)').openapi({ example: '09:30:00' });

/** Is this an IANA zone name (`Area/Location`, or `UTC`) that the runtime knows? Offsets such as `+05:30` are not. */
// Zones already found valid: building a formatter to check one costs far more than the request that names it.
const knownZones = new Set<string>();
const KNOWN_ZONES_MAX = 1000;

export function isIanaTimezone(value: string): boolean {
  if (knownZones.has(value)) return true;
  if (value.length > 64 || !IANA_NAME.test(value)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
  } catch {
    return false;
  }
  if (knownZones.size < KNOWN_ZONES_MAX) knownZones.add(value);
  return true;
}

/** An IANA time zone name. */
export const timezoneSchema = z
  .string()
  .max(64)
  .refine(isIanaTimezone, { message: 'Unknown IANA time zone', params: { type: 'invalid_timezone' } })
  .openapi({ example: 'Asia/Kolkata', description: 'IANA time zone' });

/** Slot ids are positive safe integers (doctor number × 10⁹ + start minute since 2020-01-01). */
export const slotIdSchema = z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).openapi({ example: 17000000123 });
