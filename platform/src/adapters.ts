import { join } from 'node:path';
import type { Config } from './config';
import type { Logger } from './logger';
import type { Metrics } from './metrics';
import type { CheckpointStore, EventStore } from './event-store/port';
import type { ReadStore } from './read-store/port';
import type { Bus } from './bus/port';
import { SqliteEventStore } from './event-store/sqlite';
import { MemoryReadStore } from './read-store/memory';
import { GenerationalReadStore } from './read-store/generations';
import { SqliteReadStore } from './read-store/sqlite';
import { InProcessBus } from './bus/in-process';
import { keyStoreFromConfig } from './keystore/from-config';
import { KeyRing } from './keystore/key-ring';
import { EncryptingEventStore } from './keystore/encrypting-event-store';

export interface Adapters {
  /** Personal fields encrypted on append and decrypted on read (the log underneath is `eventStore.log`). */
  eventStore: EncryptingEventStore;
  readStore: ReadStore;
  checkpoints: CheckpointStore;
  bus: Bus;
  /** Which adapter each port uses, for the start-up log and /readyz. */
  kinds: { eventStore: 'sqlite' | 'eventstoredb'; readStore: 'sqlite' | 'memory' | 'mongodb'; bus: 'in-process' | 'nats' };
  close(): Promise<void>;
}

/** In-memory checkpoints: subscribers start from the beginning after a restart (they are idempotent). */
class MemoryCheckpoints implements CheckpointStore {
  private readonly positions = new Map<string, number>();
  async load(name: string) {
    return this.positions.get(name) ?? 0;
  }
  async save(name: string, position: number) {
    this.positions.set(name, position);
  }
}

/** The embedded read models' file: a SQLite database of its own beside the event store. */
export function readModelsFile(config: Config): string {
  return join(config.dataDir, 'read-models.db');
}

/**
 * The event store the environment asks for (EventStoreDB when EVENTSTORE_URL is set, else DATA_DIR/events.db) behind
 * the per-person encryption, with the key store the environment asks for (MongoDB when MONGODB_URL is set, else
 * DATA_DIR/keys.db): what every process and command-line tool of the product writes and reads through.
 */
export async function openEventStore(config: Config): Promise<EncryptingEventStore> {
  // The servers' drivers are loaded only when configured (servers.ts).
  const log: EventStore = config.EVENTSTORE_URL
    ? new (await import('./event-store/eventstoredb')).EventStoreDbEventStore(config.EVENTSTORE_URL)
    : new SqliteEventStore({ filename: join(config.dataDir, 'events.db'), synchronous: config.SQLITE_SYNCHRONOUS });
  const store = new EncryptingEventStore(log, new KeyRing(await keyStoreFromConfig(config)));
  await store.prepareForHistory();
  return store;
}

/**
 * The adapters the environment asks for: EventStoreDB, MongoDB and NATS when their URLs are set, else the embedded
 * SQLite event store, SQLite read models (READ_STORE=memory: in memory, rebuilt at every start) and in-process bus.
 * The same code runs on either.
 */
export async function createAdapters(config: Config, logger: Logger, metrics?: Metrics): Promise<Adapters> {
  const eventStore = await openEventStore(config);
  const sqlite = eventStore.log instanceof SqliteEventStore ? eventStore.log : null;
  const mongo = config.MONGODB_URL ? await (await import('./read-store/mongodb')).MongoReadStore.connect(config.MONGODB_URL, config.MONGODB_DATABASE) : null;
  // Read models named through a generation each, so a rebuild writes beside the live one and switches over (DESIGN.md §5).
  const sqliteReadStore = config.readStoreKind === 'sqlite' ? new SqliteReadStore({ filename: readModelsFile(config) }) : null;
  const readStore: ReadStore = new GenerationalReadStore(config.readStoreKind === 'mongodb' ? mongo! : (sqliteReadStore ?? new MemoryReadStore()));
  // Process managers' checkpoints where they last: the event store's file, MongoDB, or the read models' file.
  const checkpoints: CheckpointStore = mongo ?? sqlite ?? sqliteReadStore ?? new MemoryCheckpoints();
  const onHandlerError = (err: unknown) => {
    metrics?.busRedeliveries.inc();
    logger.warn({ err }, 'bus handler failed; the message will be delivered again');
  };
  const bus: Bus = config.NATS_URL ? await (await import('./bus/nats')).NatsBus.connect({ servers: config.NATS_URL, onHandlerError }) : new InProcessBus({ onHandlerError });
  return {
    eventStore,
    readStore,
    checkpoints,
    bus,
    kinds: { eventStore: sqlite ? 'sqlite' : 'eventstoredb', readStore: config.readStoreKind, bus: config.NATS_URL ? 'nats' : 'in-process' },
    async close() {
      await bus.close();
      await readStore.close();
      await eventStore.close();
    },
  };
}
