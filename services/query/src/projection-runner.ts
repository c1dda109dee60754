import { createHash } from 'node:crypto';
import type { RecordedEvent } from '@telemed/contracts';
import type { BatchStore, EventStore, Logger, ReadStore, StoredEvent, Subscription } from '@telemed/platform';
import type { Projection } from './projections';

/** Events read from the log at a time while catching up. */
const READ_PAGE = 1000;

interface Waiter {
  position: number;
  resolve(): void;
}

/**
 * Applies the log to every projection in order. Each projection keeps its checkpoint with its documents and
 * skips events at or below it, so a redelivered batch changes nothing.
 */
export class ProjectionRunner {
  private readonly checkpoints = new Map<string, number>();
  /** event type → the projections that handle it, in the declared order. */
  private readonly byType = new Map<string, Projection[]>();
  private subscription: Subscription | null = null;
  private waiters: Waiter[] = [];
  private appliedPosition = 0;
  private appliedEvents = 0;

  constructor(
    private readonly deps: { eventStore: EventStore; readStore: ReadStore; projections: Projection[]; logger?: Logger },
  ) {}

  private handlers(type: string): Projection[] {
    let handlers = this.byType.get(type);
    if (!handlers) this.byType.set(type, (handlers = this.deps.projections.filter((p) => p.handles.has(type as RecordedEvent['type']))));
    return handlers;
  }

  get position(): number {
    return this.appliedPosition;
  }

  /** Events this runner has read from the log and applied (a restart on stored read models reads only what is new). */
  get appliedCount(): number {
    return this.appliedEvents;
  }

  /** Loads checkpoints, drops projections whose version changed, and declares indexes. */
  async prepare(): Promise<void> {
    for (const projection of this.deps.projections) {
      const checkpoint = await this.deps.readStore.getCheckpoint(projection.name);
      if (checkpoint && checkpoint.version !== projection.version) {
        await this.deps.readStore.drop(projection.name, projection.collections);
      }
      const position = checkpoint && checkpoint.version === projection.version ? checkpoint.position : 0;
      this.checkpoints.set(projection.name, position);
      for (const index of projection.indexes ?? []) await ensureIndex(this.deps.readStore, index);
    }
    this.appliedPosition = Math.min(...this.checkpoints.values());
  }

  async applyBatch(events: StoredEvent[]): Promise<void> {
    if (events.length === 0) return;
    const batch = this.deps.readStore.beginBatch();
    await this.applyEvents(events, batch);
    await this.commit(batch, events[events.length - 1]!.position, events.length);
  }

  /** Whether the batch being applied blanked an erased person (then the store scrubs its files after the commit). */
  private erasedInBatch = false;

  private async applyEvents(events: StoredEvent[], batch: BatchStore): Promise<void> {
    // Projections already past the first event (a redelivery, or one rebuilt behind the others) check each event's
    // position; the rest apply every event they handle.
    const ahead = new Set(this.deps.projections.filter((p) => this.checkpoints.get(p.name)! >= events[0]!.position));
    for (const stored of events) {
      const event = stored as unknown as RecordedEvent;
      if (event.type === 'PersonalDataErased') this.erasedInBatch = true;
      for (const projection of this.handlers(event.type)) {
        if (ahead.size > 0 && ahead.has(projection) && stored.position <= this.checkpoints.get(projection.name)!) continue;
        await projection.apply(event, batch);
      }
    }
  }

  private async commit(batch: BatchStore, last: number, count: number): Promise<void> {
    this.appliedEvents += count;
    const advanced = this.deps.projections.filter((p) => last > this.checkpoints.get(p.name)!);
    await batch.commit(advanced.map((p) => ({ name: p.name, version: p.version, position: last })));
    for (const projection of advanced) this.checkpoints.set(projection.name, last);
    this.appliedPosition = last;
    if (this.erasedInBatch) {
      this.erasedInBatch = false;
      await this.deps.readStore.scrub?.();
    }
    this.waiters = this.waiters.filter((w) => {
      if (w.position > last) return true;
      w.resolve();
      return false;
    });
  }

  /** Follows the log live from the lowest checkpoint. */
  async start(): Promise<void> {
    await this.prepare();
    this.subscription = this.deps.eventStore.subscribeToAll({
      fromPosition: this.appliedPosition,
      onEvents: async (events) => {
        await this.applyBatch(events);
        // Live, nothing is put off: a rebuild through the subscription gets its indexes after its first batch.
        await this.deps.readStore.settle?.();
      },
      onError: (error) => this.deps.logger?.error({ err: error }, 'projection failed; retrying'),
    });
  }

  /**
   * Rebuilds one projection from position 0 while the others keep their place: its documents and checkpoint are
   * dropped and the live subscription restarts from the lowest checkpoint (the others skip what they have applied).
   */
  async rebuild(name: string): Promise<void> {
    const projection = this.deps.projections.find((p) => p.name === name);
    if (!projection) throw new Error(`Unknown projection ${name}`);
    await this.stop();
    await this.deps.readStore.drop(projection.name, projection.collections);
    await this.start();
  }

  /** Reads the log to its current head (no live follow); calls `onProgress` after each page. */
  async catchUp(onProgress?: (position: number, count: number) => void, pageSize = 5000): Promise<number> {
    await this.prepare();
    let count = 0;
    for (;;) {
      // A batch of `pageSize` events read in smaller pages: each page is garbage once applied, instead of thousands
      // of parsed events surviving young-generation collections while the batch runs.
      const batch = this.deps.readStore.beginBatch();
      let position = this.appliedPosition;
      let inBatch = 0;
      while (inBatch < pageSize) {
        const events = await this.deps.eventStore.readAll({ fromPosition: position, limit: Math.min(READ_PAGE, pageSize - inBatch) });
        if (events.length === 0) break;
        await this.applyEvents(events, batch);
        position = events[events.length - 1]!.position;
        inBatch += events.length;
      }
      if (inBatch === 0) {
        await this.deps.readStore.settle?.();
        return count;
      }
      await this.commit(batch, position, inBatch);
      count += inBatch;
      onProgress?.(this.appliedPosition, count);
    }
  }

  /** Resolves true once every projection has applied `position`, false after `timeoutMs`. */
  waitForPosition(position: number, timeoutMs: number): Promise<boolean> {
    if (position <= this.appliedPosition) return Promise.resolve(true);
    return new Promise((resolve) => {
      const waiter: Waiter = {
        position,
        resolve: () => {
          clearTimeout(timer);
          resolve(true);
        },
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        resolve(false);
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }

  async stop(): Promise<void> {
    await this.subscription?.stop();
    this.subscription = null;
  }

  checkpointOf(name: string): number {
    return this.checkpoints.get(name) ?? 0;
  }
}

/**
 * A projection's index: `{collection, field}`, or `{collection, fields: [...]}` for a compound one, which a store
 * without compound indexes serves with an index on the first field.
 */
type IndexSpec = { collection: string; field?: string; fields?: readonly string[] };

async function ensureIndex(store: ReadStore, index: IndexSpec): Promise<void> {
  const fields = index.fields ?? (index.field === undefined ? [] : [index.field]);
  if (fields.length === 0) return;
  if (fields.length > 1 && store.ensureCompoundIndex) await store.ensureCompoundIndex(index.collection, fields);
  else await store.ensureIndex(index.collection, fields[0]!);
}

/** A digest of a projection's documents, independent of insertion order: equal read models give equal checksums. */
export async function projectionChecksum(readStore: ReadStore, projection: Projection): Promise<string> {
  const hash = createHash('sha256');
  for (const name of [...projection.collections].sort()) {
    hash.update(`#${name}\n`);
    const docs = await readStore.collection(name).find({}, { sort: { _id: 1 } });
    for (const doc of docs) hash.update(canonicalJson(doc) + '\n');
  }
  return hash.digest('hex');
}

export async function readModelsChecksum(readStore: ReadStore, projections: Projection[]): Promise<string> {
  const hash = createHash('sha256');
  for (const projection of projections) hash.update(`${projection.name}:${await projectionChecksum(readStore, projection)}\n`);
  return hash.digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
