import { DateTime, IANAZone } from 'luxon';

/** Conversions between UTC instants and the seeds' local `slot_date` / `start_time` fields. */

export function isValidTimezone(zone: string): boolean {
  return IANAZone.isValidZone(zone);
}

export interface LocalSlotFields {
  slot_date: string;
  start_time: string;
  end_time: string;
}

export function toLocalSlotFields(startIso: string, endIso: string, zone: string): LocalSlotFields {
  const start = DateTime.fromISO(startIso, { zone: 'utc' }).setZone(zone);
  const end = DateTime.fromISO(endIso, { zone: 'utc' }).setZone(zone);
  return { slot_date: start.toISODate()!, start_time: start.toFormat('HH:mm:ss'), end_time: end.toFormat('HH:mm:ss') };
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
