import { DateTime } from 'luxon';
import { isIanaTimezone } from './time-fields';
import { intlParts, isCachedZone, zoneFormatter, zoneOffsetMs } from './zone-offsets';

/** Conversions between UTC instants and the seeds' local `slot_date` / `start_time` fields. */

export function isValidTimezone(zone: string): boolean {
  return isCachedZone(zone) || isIanaTimezone(zone);
}

export interface LocalSlotFields {
  slot_date: string;
  start_time: string;
  end_time: string;
}

const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));
/** Years Intl renders as four plain digits: outside them (and for invalid instants) Intl itself answers. */
const FAST_MIN_MS = Date.UTC(1000, 0, 2);
const FAST_MAX_MS = Date.UTC(9999, 11, 30);

/**
 * Local date and time of an instant in a zone, as YYYY-MM-DD and HH:MM:SS. This is on every read of every slot: the
 * zone's offset comes from a per-zone, per-day cache and the fields from arithmetic, exactly what Intl would say.
 */
export function localDateTime(iso: string, zone: string): { date: string; time: string } {
  const ms = Date.parse(iso);
  if (!(ms >= FAST_MIN_MS && ms <= FAST_MAX_MS)) {
    const parts = intlParts(zoneFormatter(zone), ms);
    return { date: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute}:${parts.second}` };
  }
  const local = new Date(ms + zoneOffsetMs(zone, ms));
  return {
    date: `${local.getUTCFullYear()}-${pad2(local.getUTCMonth() + 1)}-${pad2(local.getUTCDate())}`,
    time: `${pad2(local.getUTCHours())}:${pad2(local.getUTCMinutes())}:${pad2(local.getUTCSeconds())}`,
  };
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
