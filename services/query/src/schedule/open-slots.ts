import { createHash } from 'node:crypto';
import { instantRange, storedInstant, type ApiRoutes } from '@telemed/contracts';
import { JsonText, type ReadStore } from '@telemed/platform';
import type { DoctorSlotRangeDoc, SlotDoc } from '../projections';
import { SLOT_RANGES } from './slots-projection';
import { slotLookups } from './slot-lookups';
import { slotView } from './views';

/**
 * Strictly after `after` and strictly before `before` (any ISO instants, with or without milliseconds) as bounds in the
 * stored starts' format (instants.ts; strictly after x is strictly after x's whole second), which the binary search
 * and the cache compare as text.
 */
function storedBounds(after: string, before?: string): { after: string; before?: string } {
  return { after: storedInstant(after), before: before === undefined ? undefined : instantRange({ lt: before }).$lt };
}

/** Doctors whose open slots are kept (least recently asked for go first), and zones rendered per doctor. */
const MAX_DOCTORS = 512;
const MAX_ZONES = 4;

interface Entry {
  revision: number;
  /** The slots start strictly after this instant (ISO): a request for an earlier one is a miss. */
  after: string;
  slots: SlotDoc[];
  /** Per zone: each slot's JSON as the API renders it (parallel to `slots`), and the last body sent. */
  rendered: Map<string, Rendered>;
}

/** The answer of GET /doctors/{id}/available-slots, which these bodies are. */
type AvailableSlots = ApiRoutes['getDoctorAvailableSlots']['response'];

interface Rendered {
  fragments: string[];
  last: { from: number; to: number; body: JsonText<AvailableSlots> } | null;
}

/** A weak validator of the body's bytes, as Express would make (length and hash). */
function withEtag(json: string): JsonText<AvailableSlots> {
  const bytes = Buffer.from(json);
  return new JsonText<AvailableSlots>(bytes, `W/"${bytes.length.toString(16)}-${createHash('sha1').update(bytes).digest('base64').slice(0, 27)}"`);
}

/**
 * Index of the first slot whose start is after `instant` (or at it, when `inclusive`), in ascending starts: all are UTC
 * instants in one format, so strings compare as times.
 */
function firstFrom(slots: SlotDoc[], instant: string, inclusive: boolean): number {
  let lo = 0;
  let hi = slots.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const start = slots[mid]!.start;
    if (start > instant || (inclusive && start === instant)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * A doctor's open upcoming slots, kept between requests and checked against the doctor's slot revision (the log
 * position of the last event that changed one of their slots) with one lookup by id. Patients open the same few
 * doctors' lists again and again; each costs a lookup and a slice until one of the doctor's slots changes. The
 * revision lives in the read store, so every process serving reads can keep its own cache. The revision is read
 * before the slots: a change landing in between leaves an entry older than its revision claims, never newer, and the
 * next request refreshes it.
 */
export class OpenSlots {
  private readonly entries = new Map<string, Entry>();
  private readonly ranges;
  private readonly lookups;

  constructor(readStore: ReadStore, private readonly clock: () => Date) {
    this.ranges = readStore.collection<DoctorSlotRangeDoc>(SLOT_RANGES);
    this.lookups = slotLookups(readStore);
  }

  /** Open slots starting after `after` (and before `before`), soonest first. `after` is now or later. */
  async list(doctorId: string, afterInstant: string, beforeInstant?: string): Promise<SlotDoc[]> {
    const { after, before } = storedBounds(afterInstant, beforeInstant);
    const entry = await this.entry(doctorId, after);
    if (!entry) return [];
    const [from, to] = this.bounds(entry, after, before);
    return entry.slots.slice(from, to);
  }

  /**
   * The same slots rendered in a zone as the available-slots answer, `{"slots": [...]}`, with its ETag. Until a slot
   * starts or changes, every request gets the body (and hash) made for the first.
   */
  async availableSlotsBody(doctorId: string, zone: string, afterInstant: string, beforeInstant?: string): Promise<JsonText<AvailableSlots>> {
    const { after, before } = storedBounds(afterInstant, beforeInstant);
    const entry = await this.entry(doctorId, after);
    if (!entry) return withEtag('{"slots":[]}');
    let rendered = entry.rendered.get(zone);
    if (!rendered) {
      rendered = { fragments: entry.slots.map((s) => JSON.stringify(slotView(s, zone, true))), last: null };
      if (entry.rendered.size >= MAX_ZONES) entry.rendered.delete(entry.rendered.keys().next().value!);
      entry.rendered.set(zone, rendered);
    }
    const [from, to] = this.bounds(entry, after, before);
    if (rendered.last?.from !== from || rendered.last.to !== to) {
      rendered.last = { from, to, body: withEtag(`{"slots":[${rendered.fragments.slice(from, to).join(',')}]}`) };
    }
    return rendered.last.body;
  }

  /** Slots starting strictly after `after` and strictly before `before`. */
  private bounds(entry: Entry, after: string, before?: string): [number, number] {
    const from = firstFrom(entry.slots, after, false);
    return [from, before === undefined ? entry.slots.length : Math.max(from, firstFrom(entry.slots, before, true))];
  }

  private async entry(doctorId: string, after: string): Promise<Entry | null> {
    const range = await this.ranges.get(doctorId);
    if (!range) return null;
    const cached = this.entries.get(doctorId);
    if (cached && cached.revision === range.revision && cached.after <= after) {
      this.entries.delete(doctorId);
      this.entries.set(doctorId, cached);
      return cached;
    }
    const now = storedBounds(this.clock().toISOString()).after;
    const fillAfter = now < after ? now : after;
    const slots = await this.lookups.inRange(doctorId, { after: fillAfter, statuses: ['open'] });
    const entry: Entry = { revision: range.revision, after: fillAfter, slots, rendered: new Map() };
    // A range from before revisions were kept (undefined) is read, never cached.
    if (typeof range.revision !== 'number') return entry;
    this.entries.delete(doctorId);
    if (this.entries.size >= MAX_DOCTORS) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(doctorId, entry);
    return entry;
  }
}
