import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { EVENT_FAMILIES, eventDataSchemas, eventMetadataSchema, type Actor, type EventData, type EventType } from '@telemed/contracts';
import { MemoryReadStore, SqliteEventStore, type Doc, type StoredEvent } from '@telemed/platform';
import { ProjectionRunner, allProjections, type Projection } from '@telemed/query';

/**
 * Projection specs (DESIGN.md §10): given these events, when these events, then these documents.
 *
 * The projection is the one production registers (from `allProjections`, with its erasure handling), and events reach
 * it as they reach it live: appended to a real event store (SQLite in memory), read back from the log with the
 * positions it gave them, and handed to `ProjectionRunner.applyBatch` (what the runner's live subscription calls for
 * each batch) over the in-memory read store. So checkpoints, skipping what was applied already and the batch's commit
 * are the runner's own. `given` is one batch, `when` the next; each spec runs on a fresh log and read store.
 */

/** When an event happened unless the case says (`at`): cases that compare times give them. */
export const SPEC_TIME = '2026-03-02T09:00:00.000Z';
const SYSTEM: Actor = { user_id: 'system', role: 'system' };

/** An event as a case writes it: its data typed and checked by contracts' schema, its id known before it is appended. */
export interface SpecEvent<T extends EventType = EventType> {
  readonly event_id: string;
  readonly stream: string;
  readonly type: T;
  readonly data: EventData<T>;
  readonly metadata: { actor: Actor; correlation_id: string; causation_id: string | null; occurred_at: string };
}

export interface EventOptions {
  /** occurred_at (default SPEC_TIME). */
  at?: string;
  /** Who did it (default the system). */
  actor?: Actor;
  correlation_id?: string;
  /** The stream (default `<family>-<first id in the data>`: no projection reads it). */
  stream?: string;
}

const familyOf = (type: EventType): string => Object.entries(EVENT_FAMILIES).find(([, types]) => (types as readonly string[]).includes(type))?.[0] ?? 'spec';

/** A recorded fact for a case. The data is parsed by the event type's schema, so a case cannot state an event the write side could not record. */
export function event<T extends EventType>(type: T, data: EventData<T>, options: EventOptions = {}): SpecEvent<T> {
  const parsed = eventDataSchemas[type].parse(data) as EventData<T>;
  const metadata = eventMetadataSchema.parse({
    actor: options.actor ?? SYSTEM,
    correlation_id: options.correlation_id ?? randomUUID(),
    causation_id: null,
    occurred_at: options.at ?? SPEC_TIME,
  });
  const firstId = Object.values(parsed as Record<string, unknown>).find((v) => typeof v === 'string' || typeof v === 'number');
  return { event_id: randomUUID(), stream: options.stream ?? `${familyOf(type)}-${String(firstId ?? randomUUID())}`, type, data: parsed, metadata };
}

/** A fresh id for a case (`patient-1a2b3c4d`): no two cases share a person, appointment or post. */
export const freshId = (kind: string) => `${kind}-${randomUUID().slice(0, 8)}`;

/** Where the log put the case's events, for documents that keep a position. */
export interface Log {
  positionOf(event: SpecEvent): number;
}

/** The documents expected in each named collection, all of them (in any order). */
export type Expected = Record<string, Array<Doc & Record<string, unknown>>>;

export interface ThenOptions {
  /** Collections of the projection that `when` must leave exactly as `given` made them. */
  untouched?: string[];
}

type Collections = Map<string, Doc[]>;

/** The documents of the projection's collections, each sorted by id. */
async function snapshot(store: MemoryReadStore, projection: Projection): Promise<Collections> {
  const all: Collections = new Map();
  for (const name of projection.collections) all.set(name, await store.collection(name).find({}, { sort: { _id: 1 } }));
  return all;
}

const byId = (docs: Doc[]) => [...docs].sort((a, b) => (a._id < b._id ? -1 : a._id > b._id ? 1 : 0));

class Run {
  private readonly log = new SqliteEventStore({ filename: ':memory:' });
  readonly store = new MemoryReadStore();
  readonly runner: ProjectionRunner;
  private readonly positions = new Map<string, number>();
  private head = 0;
  private prepared = false;

  constructor(readonly projection: Projection) {
    this.runner = new ProjectionRunner({ eventStore: this.log, readStore: this.store, projections: [projection] });
  }

  /** Appends the events, reads them back from the log and applies them as one live batch; answers the batch. */
  async apply(events: readonly SpecEvent[]) {
    if (!this.prepared) await this.runner.prepare();
    this.prepared = true;
    for (const e of events) {
      const { event_id, type, data, metadata } = e;
      await this.log.appendToStream(e.stream, [{ event_id, type, data, metadata }]);
    }
    const batch = await this.log.readAll({ fromPosition: this.head, limit: events.length + 1 });
    assert.equal(batch.length, events.length, 'the log answers the events just appended');
    for (const stored of batch) this.positions.set(stored.event_id, stored.position);
    if (batch.length > 0) this.head = batch[batch.length - 1]!.position;
    await this.runner.applyBatch(batch);
    this.lastBatch = batch;
  }

  /** The batch `apply` last applied, as read from the log. */
  lastBatch: StoredEvent[] = [];

  readonly logView: Log = {
    positionOf: (e) => {
      const position = this.positions.get(e.event_id);
      assert.ok(position !== undefined, `${e.type} ${e.event_id} is not one of this case's events`);
      return position;
    },
  };

  async close(): Promise<void> {
    await this.runner.stop();
    await this.log.close();
    await this.store.close();
  }
}

/** A case: the events given (already applied, one batch), those that happen next (the next batch), then what is expected. */
export class ProjectionCase {
  constructor(
    private readonly projection: Projection,
    private readonly given: readonly SpecEvent[],
    private readonly happening: readonly SpecEvent[] = [],
    private readonly redelivered: 'given' | 'when' | null = null,
  ) {}

  /** The next batch of the log. */
  when(...events: SpecEvent[]): ProjectionCase {
    return new ProjectionCase(this.projection, this.given, events, this.redelivered);
  }

  /**
   * One of the batches delivered again after `when` (a subscription that resumes from an older position, the bus's
   * at-least-once): the runner's checkpoint is to skip it. Pick the batch whose second application would show.
   */
  deliveredAgain(batch: 'given' | 'when' = 'when'): ProjectionCase {
    return new ProjectionCase(this.projection, this.given, this.happening, batch);
  }

  /** Exactly these documents in each named collection; `untouched` collections as `given` left them. */
  async then(expected: Expected | ((log: Log) => Expected), options: ThenOptions = {}): Promise<void> {
    await this.run(async (run, before, after) => {
      const wanted = typeof expected === 'function' ? expected(run.logView) : expected;
      for (const [name, docs] of Object.entries(wanted)) {
        assert.ok(after.has(name), `${name} is not a collection of ${this.projection.name} (${this.projection.collections.join(', ')})`);
        assert.deepStrictEqual(after.get(name), byId(docs), `documents of ${name}`);
      }
      for (const name of options.untouched ?? []) {
        assert.ok(after.has(name), `${name} is not a collection of ${this.projection.name}`);
        assert.deepStrictEqual(after.get(name), before.get(name), `${name} untouched`);
      }
    });
  }

  /** Every collection of the projection exactly as `given` left it; `given` must have written something to compare. */
  async thenUnchanged(): Promise<void> {
    await this.run(async (_run, before, after) => {
      assert.ok([...before.values()].some((docs) => docs.length > 0), 'the given events made documents for the case to keep');
      assert.deepStrictEqual(after, before);
    });
  }

  private async run(check: (run: Run, before: Collections, after: Collections) => Promise<void>): Promise<void> {
    const run = new Run(this.projection);
    try {
      await run.apply(this.given);
      const before = await snapshot(run.store, this.projection);
      const given = run.lastBatch;
      await run.apply(this.happening);
      const head = run.runner.checkpointOf(this.projection.name);
      if (this.redelivered !== null) {
        const again = this.redelivered === 'given' ? given : run.lastBatch;
        assert.ok(again.length > 0, `the ${this.redelivered} batch has events to deliver again`);
        await run.runner.applyBatch(again);
        assert.equal(run.runner.checkpointOf(this.projection.name), head, 'the checkpoint stays where it was');
      }
      await check(run, before, await snapshot(run.store, this.projection));
    } finally {
      await run.close();
    }
  }
}

/** The spec of one registered projection, by its name. */
export function projectionSpec(name: string) {
  const projection = allProjections.find((p) => p.name === name);
  if (!projection) throw new Error(`No projection ${name} is registered (${allProjections.map((p) => p.name).join(', ')})`);
  return {
    projection,
    given: (...events: SpecEvent[]) => new ProjectionCase(projection, events),
  };
}
