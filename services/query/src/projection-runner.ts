import { createHash } from 'node:crypto';
import type { RecordedEvent } from '@telemed/contracts';
import { GenerationalReadStore, MemoryReadStore, SETTLED, physicalName, readModelLog, type BatchStore, type Doc, type EventStore, type Logger, type ReadStore, type StoredEvent, type Subscription } from '@telemed/platform';
import type { Projection } from './projections';

/** Events read from the log at a time while catching up. */
const READ_PAGE = 1000;

/** A rebuild's new generation is read and applied in pages this size, yielding to queries between them. */
const REBUILD_PAGE = 500;
/** Events per second are averaged over this window. */
const RATE_WINDOW_MS = 10_000;

/** What an operator sees of a projection. */
export type ProjectionState =
  | { state: 'live' }
  | { state: 'rebuilding'; generation: number; position: number; head: number; applied: number; progress: number }
  | { state: 'failed'; event: { position: number; id: string; type: string; stream: string }; error: string; kind: string };

/**
 * `error`: the message (in this process only, for its tests and the log's scrubbed copy); `kind`: the error's class
 * and code, all the API shows (a message can quote the event's data, a name or a reason for a visit).
 */
interface Failure {
  event: { position: number; id: string; type: string; stream: string };
  error: string;
  kind: string;
}

interface Waiter {
  position: number;
  resolve(): void;
}

interface ProjectionRunnerDeps {
  eventStore: EventStore;
  readStore: ReadStore;
  projections: Projection[];
  logger?: Logger;
  /** How long retired collections stay after a switch-over, for readers in other processes to see it (default 5 s). */
  retireAfterMs?: number;
  /** Test-only: awaited before each live batch (projection-hold.ts). */
  holdBack?: () => Promise<void>;
}

/**
 * Applies the log to every projection in order. Each projection keeps its checkpoint with its documents and
 * skips events at or below it, so a redelivered batch changes nothing.
 */
export class ProjectionRunner {
  private readonly checkpoints = new Map<string, number>();
  /** event type → the projections that handle it (their places in `projections`), in the declared order. */
  private readonly byType = new Map<string, number[]>();
  private subscription: Subscription | null = null;
  private waiters: Waiter[] = [];
  private appliedPosition = 0;
  private appliedEvents = 0;
  /** Projections stopped by an event they threw on (a poison event): the others go on. */
  private readonly failures = new Map<string, Failure>();
  /** Rebuilds under way, by projection. */
  private readonly rebuilds = new Map<string, Extract<ProjectionState, { state: 'rebuilding' }>>();
  /** A rebuild that failed: the live generation stays and keeps answering; this says why. */
  private readonly rebuildFailures = new Map<string, Failure>();
  /** Per projection, (time, events applied) of recent batches, for events per second. */
  private readonly recent = new Map<string, Array<[number, number]>>();
  /** Retired generations waiting to be dropped: cancelled by `stop` (the store may be closed right after). */
  private readonly retirements = new Set<NodeJS.Timeout>();
  /** Retired generations being dropped now (their timer fired): `stop` waits for them, as the store closes after it. */
  private readonly retiring = new Set<Promise<void>>();
  /** The drop of generations a previous run retired, started by `prepare`; `stop` waits for it. */
  private droppingRetired: Promise<void> = Promise.resolve();
  /** Batches and switch-overs run one at a time. */
  private queue: Promise<unknown> = Promise.resolve();
  /**
   * Projections whose version changed since their read model was built (a generational store), with the version their
   * stored generation was built by: that old generation keeps answering while `start` builds the new one beside it,
   * and live events go on reaching it, applied by the new code as well as it can (see applyEvents), so what was just
   * booked is not missing from it meanwhile. Its checkpoint moves on under its old version.
   */
  private readonly outdated = new Map<string, number>();
  /** Outdated projections whose old generation the new code failed to apply an event to (logged once each). */
  private readonly outdatedMisses = new Set<string>();
  private outdatedBuilt: Promise<void> = Promise.resolve();

  private readonly deps: ProjectionRunnerDeps;

  /** `eventStore` is read as projections read it (readModelLog): the fields read models keep sealed stay sealed. */
  constructor(deps: ProjectionRunnerDeps) {
    this.deps = { ...deps, eventStore: readModelLog(deps.eventStore) };
  }

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private handlers(type: string): number[] {
    let handlers = this.byType.get(type);
    if (!handlers) {
      handlers = [];
      for (const [slot, p] of this.deps.projections.entries()) if (p.handles.has(type as RecordedEvent['type'])) handlers.push(slot);
      this.byType.set(type, handlers);
    }
    return handlers;
  }

  get position(): number {
    return this.appliedPosition;
  }

  /** Events this runner has read from the log and applied (a restart on stored read models reads only what is new). */
  get appliedCount(): number {
    return this.appliedEvents;
  }

  /**
   * Loads checkpoints and declares indexes. A projection whose version changed is rebuilt: on a generational store
   * beside its old generation, which keeps answering (see `start`); on a plain store in place, dropped first.
   */
  async prepare(): Promise<void> {
    const store = this.deps.readStore;
    // Which generation each read model is in, before a batch or an index names a collection (a restart after a switch-over).
    if (store instanceof GenerationalReadStore) {
      await store.load();
      // A generation retired before a stop and not dropped yet: dropped in slices beside the live batches (as after a
      // switch-over), not before the start, which would wait as long as it is large.
      this.droppingRetired = store.dropRetired().catch((err: unknown) => this.deps.logger?.warn({ err }, 'dropping a retired generation failed'));
    }
    for (const projection of this.deps.projections) {
      const checkpoint = await store.getCheckpoint(projection.name);
      const changed = checkpoint !== null && checkpoint.version !== projection.version;
      if (changed && store instanceof GenerationalReadStore) {
        this.outdated.set(projection.name, checkpoint.version);
        this.byType.clear();
        this.checkpoints.set(projection.name, checkpoint.position);
        continue;
      }
      if (changed) await store.drop(projection.name, projection.collections);
      this.checkpoints.set(projection.name, changed || !checkpoint ? 0 : checkpoint.position);
      for (const index of projection.indexes ?? []) await ensureIndex(store, index);
    }
    // From the lowest checkpoint, old generations' included: they follow the log too (a projection already past an
    // event skips it).
    this.appliedPosition = Math.min(...this.deps.projections.map((p) => this.checkpoints.get(p.name)!));
  }

  async applyBatch(events: StoredEvent[]): Promise<void> {
    if (events.length === 0) return;
    await this.exclusive(async () => {
      const batch = this.deps.readStore.beginBatch();
      await this.applyEvents(events, batch);
      await this.commit(batch, events[events.length - 1]!.position, events.length);
    });
  }

  /** Whether the batch being applied blanked an erased person or their clinical records (then the store scrubs its files after the commit). */
  private erasedInBatch = false;

  private async applyEvents(events: StoredEvent[], batch: BatchStore): Promise<void> {
    // Projections already past the first event (a redelivery, or one rebuilt behind the others) check each event's
    // position; the rest apply every event they handle.
    const ahead = new Set(this.deps.projections.filter((p) => this.checkpoints.get(p.name)! >= events[0]!.position));
    // Counted for the rates once per page, not per event: a clock read per applied event cost a rebuild a few percent
    // (and a count by name per applied event, two map look-ups, a few more).
    const projections = this.deps.projections;
    const applied = new Array<number>(projections.length).fill(0);
    // Indexed loops, not for-of: this async function is not optimized as a whole, and each step of an iterator here
    // was an object of its own (a fifth of a rebuild's garbage once the awaits were gone).
    for (let e = 0; e < events.length; e += 1) {
      const stored = events[e]!;
      const event = stored as unknown as RecordedEvent;
      // The end of a legal hold (ClinicalRecordsDestroyed) blanks values as an erasure does: its files are scrubbed too.
      if (event.type === 'PersonalDataErased' || event.type === 'ClinicalRecordsDestroyed') this.erasedInBatch = true;
      const handlers = this.handlers(event.type);
      for (let h = 0; h < handlers.length; h += 1) {
        const slot = handlers[h]!;
        const projection = projections[slot]!;
        if (ahead.size > 0 && ahead.has(projection) && stored.position <= this.checkpoints.get(projection.name)!) continue;
        if (this.failures.size > 0 && this.failures.has(projection.name)) continue;
        try {
          // A projection whose writes were all done as it was called answers SETTLED (port.ts): nothing to wait for,
          // and an await per applied event was a rebuild's largest source of garbage.
          const done = projection.apply(event, batch);
          if (done !== SETTLED) await done;
          applied[slot] = applied[slot]! + 1;
        } catch (error) {
          if (this.outdated.has(projection.name)) {
            // The new code on documents an older version wrote: best effort until the new generation replaces them.
            if (!this.outdatedMisses.has(projection.name)) {
              this.outdatedMisses.add(projection.name);
              this.deps.logger?.warn({ projection: projection.name, position: stored.position, type: stored.type, err: error }, 'an event did not apply to the old generation; the new one is being built');
            }
            continue;
          }
          // A poison event stops this projection only: its checkpoint stays before the event, the others go on.
          this.failures.set(projection.name, failureOf(stored, error));
          this.deps.logger?.error({ projection: projection.name, position: stored.position, type: stored.type, err: error }, 'projection stopped on an event');
        }
      }
    }
    for (let slot = 0; slot < projections.length; slot += 1) if (applied[slot]! > 0) this.count(projections[slot]!.name, applied[slot]!);
  }

  private async commit(batch: BatchStore, last: number, count: number): Promise<void> {
    this.appliedEvents += count;
    const advanced = this.deps.projections.filter((p) => last > this.checkpoints.get(p.name)! && !this.failures.has(p.name));
    // An old generation's checkpoint keeps its old version: the next start still knows it is outdated.
    await batch.commit(advanced.map((p) => ({ name: p.name, version: this.outdated.get(p.name) ?? p.version, position: last })));
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
        await this.deps.holdBack?.();
        await this.applyBatch(events);
        // Live, nothing is put off: a rebuild through the subscription gets its indexes after its first batch.
        await this.deps.readStore.settle?.();
      },
      onError: (error) => this.deps.logger?.error({ err: error }, 'projection failed; retrying'),
    });
    this.outdatedBuilt = this.buildOutdated();
  }

  /**
   * The new generation of each projection whose version changed, built one after the other as the console's Rebuild
   * builds it (the old generation answers meanwhile, frozen at its checkpoint: the old version's code is gone, so
   * nothing applies to it), switched over when caught up, the old one dropped after.
   */
  private async buildOutdated(): Promise<void> {
    for (const name of [...this.outdated.keys()]) {
      if (!this.subscription) return; // stopped
      try {
        this.deps.logger?.info({ projection: name }, 'projection version changed: building its new generation beside the old one');
        await (await this.rebuild(name)).done;
      } catch (error) {
        this.deps.logger?.error({ projection: name, err: error }, 'the new generation could not be built; the old one stays');
      }
    }
  }

  /** Resolves when the new generations of the projections whose version changed have switched over (or failed). */
  get outdatedRebuilt(): Promise<void> {
    return this.outdatedBuilt;
  }

  /**
   * Rebuilds one projection from position 0 without downtime (DESIGN.md §5): on a generational store, its next
   * generation is built beside the live one while queries keep reading the live one; once it has caught up with the
   * log, the names and the checkpoint switch in one commit between two live batches, and the old collections are
   * dropped after `retireAfterMs`. Resolves when the rebuild has started; `done` when it has switched (or failed).
   * On a plain store it drops the projection and replays it in place.
   */
  async rebuild(name: string): Promise<{ done: Promise<void> }> {
    const projection = this.deps.projections.find((p) => p.name === name);
    if (!projection) throw new Error(`Unknown projection ${name}`);
    const store = this.deps.readStore;
    if (!(store instanceof GenerationalReadStore)) {
      await this.stop();
      await store.drop(projection.name, projection.collections);
      await this.start();
      return { done: Promise.resolve() };
    }
    if (this.rebuilds.has(name)) throw new RebuildUnderWay(name);
    const generation = Math.max(...projection.collections.map((c) => store.generationOf(c))) + 1;
    const targets = new Map(projection.collections.map((c) => [c, physicalName(c, generation)]));
    const state = { state: 'rebuilding' as const, generation, position: 0, head: 0, applied: 0, progress: 0 };
    this.rebuilds.set(name, state); // before any await: a second request meanwhile is refused
    this.rebuildFailures.delete(name);
    state.head = await this.deps.eventStore.headPosition();
    const done = this.buildGeneration(projection, store, targets, state).then(
      () => undefined,
      (error: unknown) => {
        this.deps.logger?.error({ projection: name, err: error }, 'rebuild failed; the live generation stays');
      },
    );
    return { done };
  }

  private async buildGeneration(
    projection: Projection,
    store: GenerationalReadStore,
    targets: Map<string, string>,
    state: Extract<ProjectionState, { state: 'rebuilding' }>,
  ): Promise<void> {
    const fail = async (failure: Failure) => {
      this.rebuildFailures.set(projection.name, failure);
      this.rebuilds.delete(projection.name);
      await store.dropPhysical([...targets.values()]);
    };
    try {
      await store.dropPhysical([...targets.values()]); // what an interrupted attempt left
      for (const index of projection.indexes ?? []) {
        const physical = targets.get(index.collection);
        if (physical) await ensureIndex(store.inner, { ...index, collection: physical });
      }
      // Pages outside the live queue (queries and live batches go on between them), then the last few inside it.
      const page = async (): Promise<boolean> => {
        const events = await this.deps.eventStore.readAll({ fromPosition: state.position, limit: REBUILD_PAGE });
        if (events.length === 0) return false;
        const batch = store.batchWith(targets);
        for (const stored of events) {
          if (!projection.handles.has(stored.type as RecordedEvent['type'])) continue;
          try {
            const done = projection.apply(stored as unknown as RecordedEvent, batch);
            if (done !== SETTLED) await done;
            this.count(projection.name);
          } catch (error) {
            throw new PoisonEvent(failureOf(stored, error));
          }
        }
        const last = events[events.length - 1]!.position;
        await batch.commit([{ name: `${projection.name}#next`, version: projection.version, position: last }]);
        state.position = last;
        state.applied += events.length;
        state.head = Math.max(state.head, last);
        state.progress = state.head === 0 ? 1 : Math.min(1, last / state.head);
        return true;
      };
      let first = true;
      while (await page()) {
        // The new collections' indexes, declared while they were empty, made on the first page's few documents and kept
        // up row by row after: built in one pass at the end, on the first query after the switch, they held the process.
        if (first) await store.inner.settle?.();
        first = false;
        await new Promise((resolve) => setImmediate(resolve));
      }
      const retired = await this.exclusive(async () => {
        while (await page());
        const checkpoint = { name: projection.name, version: projection.version, position: state.position };
        const names = await store.switchGeneration(projection.collections, state.generation, checkpoint);
        // An outdated projection's old checkpoint is another version's: the new generation's position replaces it.
        const previous = this.outdated.delete(projection.name) ? 0 : (this.checkpoints.get(projection.name) ?? 0);
        this.outdatedMisses.delete(projection.name);
        this.byType.clear();
        this.checkpoints.set(projection.name, Math.max(state.position, previous));
        this.failures.delete(projection.name);
        this.rebuilds.delete(projection.name);
        return names;
      });
      await store.inner.drop(`${projection.name}#next`, []);
      const retire = () => store.dropPhysical(retired).catch((err: unknown) => this.deps.logger?.warn({ err }, 'dropping a retired generation failed'));
      if ((this.deps.retireAfterMs ?? 5000) <= 0) await retire();
      else {
        const timer = setTimeout(() => {
          this.retirements.delete(timer);
          const dropping = retire().finally(() => this.retiring.delete(dropping));
          this.retiring.add(dropping);
        }, this.deps.retireAfterMs ?? 5000);
        timer.unref();
        this.retirements.add(timer);
      }
    } catch (error) {
      await fail(error instanceof PoisonEvent ? error.failure : { event: { position: state.position, id: '', type: '', stream: '' }, error: messageOf(error), kind: kindOf(error) });
      if (!(error instanceof PoisonEvent)) throw error;
    }
  }

  /** Live, rebuilding (with progress) or failed (with the event and the error). */
  stateOf(name: string): ProjectionState {
    const rebuilding = this.rebuilds.get(name);
    if (rebuilding) return { ...rebuilding };
    const failure = this.failures.get(name) ?? this.rebuildFailures.get(name);
    if (failure) return { state: 'failed', ...failure };
    return { state: 'live' };
  }

  /** Events this projection applied per second over the last ten seconds. */
  eventsPerSecond(name: string, now = performance.now()): number {
    const samples = (this.recent.get(name) ?? []).filter(([t]) => now - t <= RATE_WINDOW_MS);
    this.recent.set(name, samples);
    return Math.round(samples.reduce((n, [, c]) => n + c, 0) / (RATE_WINDOW_MS / 1000));
  }

  private count(name: string, applied = 1): void {
    const now = performance.now();
    let samples = this.recent.get(name);
    if (!samples) this.recent.set(name, (samples = []));
    const last = samples[samples.length - 1];
    // One sample per 100 ms keeps the window small at any rate.
    if (last && now - last[0] < 100) last[1] += applied;
    else samples.push([now, applied]);
    if (samples.length > 200) samples.splice(0, samples.length - 100);
  }

  /**
   * How many events of the log this projection has not applied yet, counted by reading them (positions are not
   * counts: EventStoreDB's are byte offsets); `atMost` bounds the reading, and a lag that reaches it reads as that.
   */
  lagOf(name: string, atMost = 10_000): Promise<number> {
    return this.eventsAfter(this.checkpointOf(name), atMost);
  }

  /** Events in the log after `position`, counted by reading them, up to `atMost`. */
  async eventsAfter(from: number, atMost = 10_000): Promise<number> {
    let position = from;
    let lag = 0;
    while (lag < atMost) {
      const events = await this.deps.eventStore.readAll({ fromPosition: position, limit: Math.min(READ_PAGE, atMost - lag) });
      if (events.length === 0) break;
      lag += events.length;
      position = events[events.length - 1]!.position;
    }
    return lag;
  }

  /** Reads the log to its current head (no live follow); calls `onProgress` after each page. */
  async catchUp(onProgress?: (position: number, count: number) => void, pageSize = 5000): Promise<number> {
    await this.prepare();
    let count = 0;
    for (;;) {
      // A batch of `pageSize` events read in smaller pages: each page is garbage once applied, instead of thousands
      // of parsed events surviving young-generation collections while the batch runs.
      const batch = this.deps.readStore.beginBatch({ bulk: true });
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
    // A retired generation not dropped yet is dropped by the next start's prepare (dropRetired).
    for (const timer of this.retirements) clearTimeout(timer);
    this.retirements.clear();
    await this.subscription?.stop();
    this.subscription = null;
    await this.droppingRetired;
    await Promise.all(this.retiring);
  }

  checkpointOf(name: string): number {
    return this.checkpoints.get(name) ?? 0;
  }
}

export class RebuildUnderWay extends Error {
  constructor(name: string) {
    super(`A rebuild of ${name} is already under way`);
  }
}

class PoisonEvent extends Error {
  constructor(readonly failure: Failure) {
    super(failure.error);
  }
}

function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 500);
}

/** The error's class and, when it has one, its code (`SqliteError (SQLITE_FULL)`): never its message. */
function kindOf(error: unknown): string {
  if (!(error instanceof Error)) return error === null ? 'null' : typeof error;
  const code = (error as { code?: unknown }).code;
  const name = (error.name || error.constructor?.name || 'Error').slice(0, 100);
  return typeof code === 'string' || typeof code === 'number' ? `${name} (${String(code).slice(0, 100)})` : name;
}

function failureOf(stored: StoredEvent, error: unknown): Failure {
  return { event: { position: stored.position, id: stored.event_id, type: stored.type, stream: stored.stream_id }, error: messageOf(error), kind: kindOf(error) };
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
    for await (const docs of inIdOrder(readStore, name)) for (const doc of docs) hash.update(canonicalJson(doc) + '\n');
  }
  return hash.digest('hex');
}

/** Documents read for a checksum at a time: the process holds a page of a read model, never all of it. */
const CHECKSUM_PAGE = 1000;

/**
 * A collection's documents in id order, a page at a time with the event loop free between pages (a checksum reads
 * every document: on SQLite or MongoDB, of a long history). In memory they are all held already: one sorted read.
 */
async function* inIdOrder(readStore: ReadStore, name: string): AsyncGenerator<Doc[]> {
  const collection = readStore.collection(name);
  const store = readStore instanceof GenerationalReadStore ? readStore.inner : readStore;
  if (store instanceof MemoryReadStore) {
    yield await collection.find({}, { sort: { _id: 1 } });
    return;
  }
  let after: string | null = null;
  for (;;) {
    const page: Doc[] = await collection.find(after === null ? {} : { _id: { $gt: after } }, { sort: { _id: 1 }, limit: CHECKSUM_PAGE });
    if (page.length > 0) yield page;
    if (page.length < CHECKSUM_PAGE) return;
    after = page[page.length - 1]!._id;
    await new Promise((resolve) => setImmediate(resolve));
  }
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
