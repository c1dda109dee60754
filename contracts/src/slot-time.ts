import { DateTime } from 'luxon';
import { isIanaTimezone } from './time-fields';

/** Conversions between UTC instants and the seeds' local `slot_date` / `start_time` fields. */

export function isValidTimezone(zone: string): boolean {
  return formatters.has(zone) || isIanaTimezone(zone);
}

export interface LocalSlotFields {
  slot_date: string;
  start_time: string;
  end_time: string;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
/** Zone names are case-insensitive, so callers can spell one zone many ways: the cache forgets rather than grows. */
const MAX_CACHED_FORMATTERS = 256;

/** Local date and time of an instant in a zone, as YYYY-MM-DD and HH:MM:SS (a cached formatter: this is on every read). */
export function localDateTime(iso: string, zone: string): { date: string; time: string } {
  let format = formatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    if (formatters.size >= MAX_CACHED_FORMATTERS) formatters.clear();
    formatters.set(zone, format);
  }
  const parts: Record<string, string> = {};
  for (const part of format.formatToParts(new Date(iso))) parts[part.type] = part.value;
  return { date: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}:${parts.second}` };
}

export function toLocalSlotFields(startIso: string, endIso: string, zone: string): LocalSlotFields {
  const start = localDateTime(startIso, zone);
  return { slot_date: start.date, start_time: start.time, end_time: localDateTime(endIso, zone).time };
}

/**
 * The instant of a local date and time in a zone, or null when that wall-clock time does not exist there
 * (a daylight-saving gap) or the fields are not a real date and time.
 */
export function parseLocalDateTime(date: string, time: string, zone: string): DateTime | null {
  const local = DateTime.fromISO(`${date}T${time}`, { zone });
  if (!local.isValid) return null;
  if (local.toISODate() !== date || local.toFormat('HH:mm:ss') !== time) return null;
  return local;
}

export function utcIso(dateTime: DateTime): string {
  return dateTime.toUTC().toISO({ suppressMilliseconds: true })!;
}
