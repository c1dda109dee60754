/**
 * UTC offsets of IANA zones, learnt from Intl once per zone and UTC day and then reused: rendering an instant in a
 * zone becomes arithmetic instead of an Intl.DateTimeFormat call per field (which was most of the cost of a slot list).
 *
 * A day whose offset is the same at its start and at the next day's start is taken to have one offset throughout;
 * otherwise the moment of the change is found (to the second) by bisection, once. This assumes at most one change of
 * offset per zone and UTC day, which holds for every zone's rules in use.
 */

const DAY_MS = 86_400_000;
/** Zone names are case-insensitive, so callers can spell one zone many ways: the cache forgets rather than grows. */
const MAX_CACHED_ZONES = 256;
/** About 27 years of days per zone before its day cache starts over. */
const MAX_CACHED_DAYS = 10_000;

type DayOffsets = { before: number; changeAt: number; after: number };

interface ZoneCache {
  format: Intl.DateTimeFormat;
  days: Map<number, DayOffsets>;
}

const zones = new Map<string, ZoneCache>();

/** The zone's formatter (created once; throws RangeError for an unknown zone, as Intl does). */
export function zoneFormatter(zone: string): Intl.DateTimeFormat {
  return zoneCache(zone).format;
}

export function isCachedZone(zone: string): boolean {
  return zones.has(zone);
}

function zoneCache(zone: string): ZoneCache {
  let cache = zones.get(zone);
  if (!cache) {
    const format = new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    if (zones.size >= MAX_CACHED_ZONES) zones.clear();
    zones.set(zone, (cache = { format, days: new Map() }));
  }
  return cache;
}

/** Local wall-clock fields of an instant (whole seconds) straight from Intl. */
export function intlParts(format: Intl.DateTimeFormat, ms: number): Record<string, string> {
  const parts: Record<string, string> = {};
  for (const part of format.formatToParts(new Date(ms))) parts[part.type] = part.value;
  return parts;
}

/** Offset (local minus UTC, in ms) at an instant whole to the second, asked of Intl. */
function intlOffset(format: Intl.DateTimeFormat, ms: number): number {
  const p = intlParts(format, ms);
  const local = new Date(0);
  local.setUTCFullYear(Number(p.year), Number(p.month) - 1, Number(p.day));
  local.setUTCHours(Number(p.hour), Number(p.minute), Number(p.second), 0);
  return local.getTime() - ms;
}

function learnDay(format: Intl.DateTimeFormat, day: number): DayOffsets {
  const start = day * DAY_MS;
  const end = start + DAY_MS;
  const before = intlOffset(format, start);
  const after = intlOffset(format, end);
  if (before === after) return { before, changeAt: end, after };
  // The change is in (start, end]: bisect to the first second with the new offset.
  let low = start; // offset `before`
  let high = end; // offset `after`
  while (high - low > 1000) {
    const middle = low + Math.floor((high - low) / 2000) * 1000;
    if (intlOffset(format, middle) === before) low = middle;
    else high = middle;
  }
  return { before, changeAt: high, after };
}

/** The zone's offset from UTC (local minus UTC, in ms) at an instant. */
export function zoneOffsetMs(zone: string, ms: number): number {
  const cache = zoneCache(zone);
  const day = Math.floor(ms / DAY_MS);
  let offsets = cache.days.get(day);
  if (!offsets) {
    if (cache.days.size >= MAX_CACHED_DAYS) cache.days.clear();
    cache.days.set(day, (offsets = learnDay(cache.format, day)));
  }
  return ms < offsets.changeAt ? offsets.before : offsets.after;
}
