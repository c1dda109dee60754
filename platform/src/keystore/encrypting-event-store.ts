import { erasedValueOf, isEventType, openedValue, personalFieldRules, sealedInReadModels, type EventType } from '@telemed/contracts';
import type { AppendOptions, AppendResult, EventStore, NewEvent, ReadStreamOptions, StoredEvent, SubscribeOptions, Subscription } from '../event-store/port';
import { decryptEventData, encryptEventData, fieldContext } from './event-envelope';
import { DecryptionWorker } from './decryption-worker';
import { DecryptingReadAhead } from './decrypting-read-ahead';
import { KEY_FORGETTING_EVENTS } from './key-forgetting-events';
import { EnvelopeError, keyIdOf, parseCiphertext } from './envelope';
import { SqliteEventStore } from '../event-store/sqlite';
import type { KeyRing } from './key-ring';
import { Lru } from '../lru';

/**
 * Events this process appended, kept in clear for a while by event id: the projections that follow the log and the
 * decider that loads the stream next (an approval after a request) read them without decrypting what was just
 * encrypted. About a minute of bookings; emptied whenever a key is forgotten, so nothing erased is served from it.
 */
const RECENT_PLAIN_LIMIT = 4096;

/** Pages of the log at least this long are read ahead, the next one decrypted on a worker thread meanwhile. */
const READ_AHEAD_MIN_PAGE = 200;

/**
 * Which personal fields a reader gets in clear: 'plain' all of them (deciders, process managers), 'read-models' all but
 * those read models keep sealed (contracts' sealedInReadModels: projections store their ciphertext as it is).
 */
type Reading = 'plain' | 'read-models';

/** Which fields `open` decrypts: all, all but those read models keep sealed, or only those. */
type Opens = undefined | ((type: EventType, field: string) => boolean);
const EXCEPT_SEALED_IN_READ_MODELS: Opens = (type, field) => !sealedInReadModels(type).has(field);
const ONLY_SEALED_IN_READ_MODELS: Opens = (type, field) => sealedInReadModels(type).has(field);
const opensFor = (reading: Reading): Opens => (reading === 'plain' ? undefined : EXCEPT_SEALED_IN_READ_MODELS);

/** An event this process appended, in clear as each kind of reader reads it. */
interface KeptPlain {
  plain: unknown;
  /** The same with the fields read models keep sealed as their ciphertext (the plain object when there are none). */
  readModels: unknown;
}

interface ReadAhead {
  reading: Reading;
  fromPosition: number;
  limit: number;
  /** The key ring's forget count when it was read: a page read before a key was forgotten is read again. */
  forgotten: number;
  page: Promise<StoredEvent[]>;
}

/** Whether events of this type hold personal fields (contracts' PERSONAL_FIELDS). */
const personal = (type: string): type is EventType => isEventType(type) && personalFieldRules(type).length > 0;

/**
 * The event store as the product uses it: personal fields (contracts' PERSONAL_FIELDS) are encrypted under their
 * person's data key on append and decrypted on every read, so deciders, process managers and projections see plain
 * values while the log, and the bus that copies it, hold only ciphertext. A field whose key was destroyed reads as
 * ERASED_VALUE; a plain value written before encryption existed reads as it is. `log` is the store underneath, for
 * the one reader that must keep the ciphertext: the bus relay.
 */
export class EncryptingEventStore implements EventStore {
  private readonly recentPlain = new Lru<string, KeptPlain>(RECENT_PLAIN_LIMIT);
  private readModelView: EventStore | null = null;
  /** The key ring's forget count when `recentPlain` was last known good. */
  private plainAsOf: number;
  private readonly worker = new DecryptionWorker();
  private ahead: ReadAhead | null = null;
  /** For a SQLite log in a file: its pages read and decrypted ahead on one thread (see readAllAhead). */
  private readonly sqlite: { log: SqliteEventStore; pages: DecryptingReadAhead } | null;

  constructor(
    readonly log: EventStore,
    readonly keys: KeyRing,
  ) {
    this.plainAsOf = keys.forgotten;
    this.sqlite = log instanceof SqliteEventStore && log.fileForReaders ? { log, pages: new DecryptingReadAhead(log.fileForReaders, keys) } : null;
  }

  /** The data this process appended for the event in clear, if it still has it and no key was forgotten since. */
  private plainOf(eventId: string, opens: Opens): unknown {
    if (this.keys.forgotten !== this.plainAsOf) {
      this.recentPlain.clear();
      this.plainAsOf = this.keys.forgotten;
      return undefined;
    }
    const kept = this.recentPlain.get(eventId);
    return kept && (opens === EXCEPT_SEALED_IN_READ_MODELS ? kept.readModels : kept.plain);
  }

  /**
   * The log as projections read it: as this store reads it, except that the fields read models keep sealed
   * (contracts' sealedInReadModels) stay the ciphertext the log holds; the query side opens them when it serves them.
   */
  forReadModels(): EventStore {
    this.readModelView ??= {
      appendToStream: (stream, events, options) => this.appendToStream(stream, events, options),
      readStream: (stream, options) => this.readStreamAs('read-models', stream, options),
      readAll: (options) => this.readAllAs('read-models', options),
      subscribeToAll: (options) => this.subscribeAs('read-models', options),
      headPosition: () => this.headPosition(),
      close: () => this.close(),
    };
    return this.readModelView;
  }

  async appendToStream(stream: string, events: NewEvent[], options: AppendOptions = {}): Promise<AppendResult> {
    let sealed: NewEvent[];
    let forgotten: number;
    // Sealed again if a key was forgotten or destroyed meanwhile: a key taken before its destruction must not seal what
    // is appended after it. From the last check to the log's append nothing is awaited.
    do {
      forgotten = this.keys.forgotten;
      sealed = [];
      for (const event of events) {
        sealed.push(
          personal(event.type)
            ? { ...event, data: await encryptEventData(event.type, event.data as object, this.keys.keyFor, options.parties ?? {}, options.whenErased) }
            : event,
        );
      }
    } while (this.keys.forgotten !== forgotten);
    // Kept before the append: a subscriber in this process may be handed the events before the append resolves.
    const kept: string[] = [];
    // Not if a key was forgotten meanwhile: a field of that person may have been sealed as erased.
    for (let i = 0; i < events.length && this.keys.forgotten === forgotten; i += 1) {
      if (sealed[i]!.data === events[i]!.data) continue;
      const plain = deepFrozen(asRead(events[i]!.data as Record<string, unknown>, sealed[i]!.data as Record<string, unknown>));
      this.recentPlain.set(events[i]!.event_id, { plain, readModels: withSealedInReadModels(events[i]!.type, plain, sealed[i]!.data as Record<string, unknown>) });
      kept.push(events[i]!.event_id);
    }
    try {
      return await this.log.appendToStream(stream, sealed, options);
    } catch (error) {
      for (const id of kept) this.recentPlain.delete(id);
      throw error;
    }
  }

  readStream(stream: string, options?: ReadStreamOptions): Promise<StoredEvent[]> {
    return this.readStreamAs('plain', stream, options);
  }

  private async readStreamAs(reading: Reading, stream: string, options?: ReadStreamOptions): Promise<StoredEvent[]> {
    return this.open(await this.log.readStream(stream, options), false, opensFor(reading));
  }

  /**
   * A full page is followed by a read of the next one, whose fields are decrypted on a worker thread while the caller
   * applies this one (a catch-up or a rebuild reads page after page); the next call takes it if it asks for it.
   */
  readAll(options: { fromPosition: number; limit: number }): Promise<StoredEvent[]> {
    return this.readAllAs('plain', options);
  }

  private async readAllAs(reading: Reading, options: { fromPosition: number; limit: number }): Promise<StoredEvent[]> {
    if (this.sqlite?.pages.ready) return this.readAllAhead(reading, this.sqlite, options);
    const opens = opensFor(reading);
    const ahead = this.ahead;
    this.ahead = null;
    const usable =
      ahead && ahead.reading === reading && ahead.fromPosition === options.fromPosition && ahead.limit === options.limit && ahead.forgotten === this.keys.forgotten;
    const page = usable ? await ahead.page : await this.open(await this.log.readAll(options), false, opens);
    if (page.length === options.limit && options.limit >= READ_AHEAD_MIN_PAGE) {
      const next = { fromPosition: page[page.length - 1]!.position, limit: options.limit };
      // Until the decryption thread has started (a few hundred milliseconds), a page is decrypted here instead of
      // waiting for it. A SQLite log's own thread takes over once it has started.
      if (this.sqlite) this.sqlite.pages.warm();
      else this.worker.warm();
      const offThread = !this.sqlite && this.worker.ready;
      const read = this.log.readAll(next).then((events) => this.open(events, offThread, opens));
      read.catch(() => undefined); // surfaced to the call that takes it; a page nobody takes is dropped
      this.ahead = { ...next, reading, forgotten: this.keys.forgotten, page: read };
      // One turn of the event loop before the caller applies this page: the log's next page is usually waiting as a
      // message already, and taking it now sends its fields to the decryption thread while this page is applied.
      // Without the turn, a caller that applies in microtasks only takes it after the whole page, then waits for it.
      await new Promise((resolve) => setImmediate(resolve));
    }
    return page;
  }

  /**
   * A SQLite log's pages come from a thread that reads and decrypts them ahead, so this thread only parses each page
   * as it would without encryption. A page the thread leaves (the first, a short one, one holding an erasure) is read
   * and decrypted here, and a run of read-ahead starts after it.
   */
  private async readAllAhead(reading: Reading, sqlite: { log: SqliteEventStore; pages: DecryptingReadAhead }, options: { fromPosition: number; limit: number }) {
    this.ahead = null;
    const { fromPosition, limit } = options;
    // A run of full pages starts on the thread with its first page: its fields are decrypted there, while this thread
    // only looks up the keys they name (a rebuild's first page holds the first people's registrations, thousands of
    // fields). A page the log may not fill yet (a catch-up's last) is read here, not twice.
    const full = limit >= READ_AHEAD_MIN_PAGE && (await sqlite.log.headPosition()) - fromPosition >= limit;
    if (full && !sqlite.pages.reading(fromPosition, limit)) sqlite.pages.start(fromPosition, limit);
    // The thread leaves the fields read models keep sealed as they are: opened here for a reader that wants them.
    const taken = await sqlite.pages.take(fromPosition, limit);
    if (taken) return reading === 'read-models' ? taken : this.open(taken, false, ONLY_SEALED_IN_READ_MODELS);
    const stored = sqlite.log.readPage(options);
    // The thread starts on the next page before this one is decrypted here, not after. An erasure in this page makes
    // the keys the thread was given stale, and its pages are then not used (DecryptingReadAhead.take).
    if (stored.length === limit && limit >= READ_AHEAD_MIN_PAGE) sqlite.pages.start(stored[stored.length - 1]!.position, limit);
    return this.open(stored, false, opensFor(reading));
  }

  /**
   * Starts the thread that reads a SQLite log ahead when the log is long enough to be read in pages (a process about
   * to catch up or rebuild), so it has loaded (a few hundred milliseconds) by the time the reading starts. Not waited for.
   */
  async prepareForHistory(): Promise<void> {
    if (this.sqlite && (await this.log.headPosition()) >= 2 * READ_AHEAD_MIN_PAGE) this.sqlite.pages.warm();
  }

  /** Whether a SQLite log's pages are read and decrypted ahead on a thread (started now if not yet). */
  readAheadOnThread(): Promise<boolean> {
    return this.sqlite?.pages.whenReady() ?? Promise.resolve(false);
  }

  /** Pages the thread handed over decrypted. */
  get pagesDecryptedAhead(): number {
    return this.sqlite?.pages.taken ?? 0;
  }

  subscribeToAll(options: SubscribeOptions): Subscription {
    return this.subscribeAs('plain', options);
  }

  private subscribeAs(reading: Reading, options: SubscribeOptions): Subscription {
    const opens = opensFor(reading);
    return this.log.subscribeToAll({ ...options, onEvents: async (events) => options.onEvents(await this.open(events, false, opens)) });
  }

  headPosition(): Promise<number> {
    return this.log.headPosition();
  }

  async close(): Promise<void> {
    this.ahead = null;
    await this.sqlite?.pages.close();
    await this.worker.close();
    await this.log.close();
    await this.keys.close();
  }

  /**
   * The events with their personal fields in clear; the array is reused when nothing needed decrypting. Off the
   * thread, the fields are decrypted on the worker (keys are still looked up here, in the log's order, so an erasure
   * met on the way is honoured as it is in line).
   */
  private async open(events: StoredEvent[], offThread = false, opens: Opens = undefined): Promise<StoredEvent[]> {
    let out: StoredEvent[] | null = null;
    // Off the thread: the texts to decrypt there, where each lives, and where its plain value goes.
    const texts: string[] = [];
    const contexts: string[] = [];
    const targets: Array<{ data: Record<string, unknown>; type: EventType; field: string }> = [];
    const keys = new Map<string, Buffer>();
    // This page's keys by id (null: destroyed), so the ring's cache is not reordered per field; emptied on a forget.
    const pageKeys = new Map<string, Buffer | null>();
    for (let i = 0; i < events.length; i += 1) {
      const event = events[i]!;
      // Another process erased this person: their key is gone, and so must be this process's copy.
      const forgotten = KEY_FORGETTING_EVENTS[event.type];
      if (forgotten) {
        this.keys.forget(forgotten((event.data as { user_id: string }).user_id));
        pageKeys.clear();
      }
      if (!personal(event.type)) continue;
      const plain = this.plainOf(event.event_id, opens);
      if (plain !== undefined) {
        out ??= events.slice();
        out[i] = { ...event, data: plain };
        continue;
      }
      if (!offThread) {
        const { data } = await decryptEventData(event.type, event.data as object, this.keys.keyById, this.keys.cachedKeyById, opens);
        if (data === event.data) continue;
        out ??= events.slice();
        out[i] = { ...event, data };
        continue;
      }
      let copy: Record<string, unknown> | null = null;
      for (const rule of personalFieldRules(event.type)) {
        for (const field of rule.fields) {
          if (opens && !opens(event.type, field)) continue;
          const value = (event.data as Record<string, unknown>)[field];
          // Only the key is read here; the thread checks the whole text (a plain value comes back as false).
          const keyId = typeof value === 'string' ? keyIdOf(value) : null;
          if (keyId === null) continue;
          if (!copy) {
            copy = { ...(event.data as Record<string, unknown>) };
            out ??= events.slice();
            out[i] = { ...event, data: copy };
          }
          let key = pageKeys.get(keyId);
          if (key === undefined) {
            const cached = this.keys.cachedKeyById(keyId);
            key = cached === undefined ? await this.keys.keyById(keyId) : cached;
            pageKeys.set(keyId, key);
          }
          if (!key) {
            if (parseCiphertext(value as string)) copy[field] = erasedValueOf(event.type, field);
            continue;
          }
          keys.set(keyId, key);
          texts.push(value as string);
          contexts.push(fieldContext(event.type, field));
          targets.push({ data: copy, type: event.type, field });
        }
      }
    }
    if (texts.length > 0) {
      const results = await this.worker.decrypt(texts, contexts, keys, this.keys.forgotten);
      for (let j = 0; j < results.length; j += 1) {
        const plain = results[j]!;
        if (plain === false) continue; // not a ciphertext: the value stays as it is
        if (plain === null) throw new EnvelopeError('The ciphertext does not authenticate (altered, or another key or field)');
        const { data, type, field } = targets[j]!;
        data[field] = openedValue(type, field, plain);
      }
    }
    return out ?? events;
  }
}

/**
 * The plain data as a reader would decrypt it from the log: through JSON (no undefined members, dates as strings), and
 * a field sealed as erased (its person has no key) reads as erased.
 */
function asRead(plain: Record<string, unknown>, sealed: Record<string, unknown>): Record<string, unknown> {
  const copy = JSON.parse(JSON.stringify(plain)) as Record<string, unknown>;
  // Sealed as erased: ERASED_VALUE, or a JSON field's erased value (neither a ciphertext nor the plain value).
  for (const field of Object.keys(sealed)) {
    const value = sealed[field];
    if (value !== plain[field] && !(typeof value === 'string' && parseCiphertext(value))) copy[field] = JSON.parse(JSON.stringify(value)) as unknown;
  }
  return copy;
}

/** The plain data with the fields read models keep sealed as sealed (the plain object itself when there are none). */
function withSealedInReadModels(type: string, plain: Record<string, unknown>, sealed: Record<string, unknown>): unknown {
  const fields = sealedInReadModels(type);
  if (fields.size === 0) return plain;
  const copy = { ...plain };
  for (const field of fields) if (Object.hasOwn(sealed, field)) copy[field] = sealed[field];
  return Object.freeze(copy);
}

/** The log as projections read it (EncryptingEventStore.forReadModels), or the store itself when it does not encrypt. */
export function readModelLog(store: EventStore): EventStore {
  return store instanceof EncryptingEventStore ? store.forReadModels() : store;
}

/** Readers share the kept copy: none of them may change it. */
function deepFrozen<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const member of Object.values(value)) deepFrozen(member);
    Object.freeze(value);
  }
  return value;
}

/** The store underneath the encryption, holding ciphertext: what the relay publishes. */
export function ciphertextLog(store: EventStore): EventStore {
  return store instanceof EncryptingEventStore ? store.log : store;
}

/** The key ring behind an encrypting store (to destroy a person's key), or null for a store without encryption. */
export function keyRingOf(store: EventStore): KeyRing | null {
  return store instanceof EncryptingEventStore ? store.keys : null;
}
