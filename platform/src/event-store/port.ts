/** The event store port: the source of truth. Positions are global, 1-based and increasing; revisions are per stream, 0-based. */

export type ExpectedRevision = 'no_stream' | 'stream_exists' | 'any' | number;

export interface NewEvent {
  event_id: string;
  type: string;
  data: unknown;
  metadata: unknown;
}

export interface StoredEvent {
  event_id: string;
  stream_id: string;
  revision: number;
  position: number;
  type: string;
  data: unknown;
  metadata: unknown;
}

export interface AppendResult {
  /** Revision of the last event appended to the stream. */
  next_revision: number;
  /** Global position of the last event appended. */
  position: number;
}

export class WrongExpectedRevisionError extends Error {
  constructor(
    readonly stream: string,
    readonly expected: ExpectedRevision,
    readonly actual: number | null,
  ) {
    super(`Stream ${stream}: expected revision ${String(expected)}, actual ${actual === null ? 'no stream' : actual}`);
    this.name = 'WrongExpectedRevisionError';
  }
}

export interface Subscription {
  stop(): Promise<void>;
}

export interface SubscribeOptions {
  /** Deliver events after this position (0 = from the beginning). */
  fromPosition: number;
  /** Called with each batch in order; the next batch waits for the promise. A throw is retried after a pause. */
  onEvents(events: StoredEvent[]): Promise<void>;
  onError?(error: unknown): void;
  batchSize?: number;
}

export interface AppendOptions {
  expectedRevision?: ExpectedRevision;
  /**
   * Parties of the stream (its patient) for personal fields whose key is a party's rather than a field of the event
   * (contracts' PERSONAL_FIELDS): the encrypting store needs them, the stores themselves ignore them.
   */
  parties?: Readonly<Partial<Record<'patient', string>>>;
  /**
   * A personal field whose person was erased (their data key destroyed): 'refuse' (the default) throws
   * SubjectErasedError and writes nothing, so nobody's words are stored as '[erased]' behind an answer of success;
   * 'blank' stores the field as erased, for the system's own writes (a closer's reason is the product's text, and the
   * closing must go through). The stores themselves ignore it.
   */
  whenErased?: 'refuse' | 'blank';
}

export interface ReadStreamOptions {
  /** The first revision to read (0 = the stream's first event). */
  fromRevision?: number;
  /** At most this many events (one saved version, read without the events after it); all of them when absent. */
  maxCount?: number;
}

export interface EventStore {
  appendToStream(stream: string, events: NewEvent[], options?: AppendOptions): Promise<AppendResult>;
  /**
   * A stream's events in revision order, all of them or those from `fromRevision` on (a reader that already folded the
   * earlier ones); [] when the stream does not exist or has nothing that far.
   */
  readStream(stream: string, options?: ReadStreamOptions): Promise<StoredEvent[]>;
  /** Events after `fromPosition`, at most `limit`. */
  readAll(options: { fromPosition: number; limit: number }): Promise<StoredEvent[]>;
  /** Catch-up subscription: reads the log from a position, then follows new appends live. */
  subscribeToAll(options: SubscribeOptions): Subscription;
  headPosition(): Promise<number>;
  close(): Promise<void>;
}

/** Checks an expected revision against the stream's current one (null when the stream does not exist). */
export function revisionMatches(expected: ExpectedRevision, actual: number | null): boolean {
  if (expected === 'any') return true;
  if (expected === 'no_stream') return actual === null;
  if (expected === 'stream_exists') return actual !== null;
  return actual === expected;
}

/** Where subscribers that are not projections (process managers, the relay) keep their position. */
export interface CheckpointStore {
  load(name: string): Promise<number>;
  save(name: string, position: number): Promise<void>;
}
