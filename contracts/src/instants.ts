/**
 * Instants as the read models keep them: UTC text to the whole second, without a fraction, `2026-12-01T05:00:00Z`
 * (what the write side records for slots, appointments, consultations and scheduled posts). The read stores compare
 * strings, so every value of a field compared by time has this one length and format: then text order is time order.
 * A bound from a request or a clock (`…05:00:00.000Z`, `…05:00:00.5+05:30`) is never compared as it is written:
 * `'…05:00:00.000Z' < '…05:00:00Z'`, so an inclusive bound equal to a start left that start out.
 */

export type InstantInput = string | Date | number;

/** Range operators over a stored instant field, as a read-store filter takes them. */
export interface InstantRange {
  $gt?: string;
  $gte?: string;
  $lt?: string;
  $lte?: string;
}

const SECOND_MS = 1000;

function epochMs(at: InstantInput): number {
  const ms = typeof at === 'string' ? Date.parse(at) : typeof at === 'number' ? at : at.getTime();
  if (!Number.isFinite(ms)) throw new RangeError(`Not an instant: ${String(at)}`);
  return ms;
}

/** Whether the instant lies strictly inside a second (a fraction below a millisecond counts: Date.parse drops it). */
function hasFraction(at: InstantInput, ms: number): boolean {
  if (typeof at === 'string') return /[.,]\d*[1-9]/.test(at.match(/T\d\d:\d\d:\d\d([.,]\d+)/)?.[1] ?? '');
  return ms % SECOND_MS !== 0;
}

const text = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** Text already in the stored form (what the write side records): it is returned as it is, without a parse. */
const STORED_FORM = /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\dZ$/;

/** The stored text of an instant, to the second (a fraction is dropped: earlier, never later). */
export function storedInstant(at: InstantInput): string {
  // Projections call this for every start and end they store: a rebuild paid a parse and a format for each.
  if (typeof at === 'string' && at.length === 20 && STORED_FORM.test(at)) return at;
  return text(Math.floor(epochMs(at) / SECOND_MS) * SECOND_MS);
}

/** The stored text of the first whole second at or after the instant. */
function storedCeiling(at: InstantInput): string {
  const ms = epochMs(at);
  const floor = Math.floor(ms / SECOND_MS) * SECOND_MS;
  return text(hasFraction(at, ms) ? floor + SECOND_MS : floor);
}

/**
 * A filter on a stored instant field meaning exactly the bounds given, whatever their offset or precision: a stored
 * value (whole seconds) is >= x iff >= ceil(x), > x iff > floor(x), <= x iff <= floor(x), < x iff < ceil(x).
 */
export function instantRange(bounds: { gt?: InstantInput; gte?: InstantInput; lt?: InstantInput; lte?: InstantInput }): InstantRange {
  const range: InstantRange = {};
  if (bounds.gt !== undefined) range.$gt = storedInstant(bounds.gt);
  if (bounds.gte !== undefined) range.$gte = storedCeiling(bounds.gte);
  if (bounds.lt !== undefined) range.$lt = storedCeiling(bounds.lt);
  if (bounds.lte !== undefined) range.$lte = storedInstant(bounds.lte);
  return range;
}

/** Whether a stored instant is at or before `at` (e.g. a slot has started by now), compared as times, never as text. */
export function isAtOrBefore(stored: string, at: InstantInput): boolean {
  return epochMs(stored) <= epochMs(at);
}
