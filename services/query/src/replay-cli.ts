import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import cliProgress from 'cli-progress';
import {
  GenerationalReadStore,
  MemoryReadStore,
  SqliteReadStore,
  loadConfig,
  openEventStore,
  readModelLog,
  readModelsFile,
  type Config,
  type EventStore,
  type ReadStore,
} from '@telemed/platform';
import { MongoReadStore } from '@telemed/platform/servers';
import { allProjections, type Projection } from './projections';
import { ProjectionRunner, projectionChecksum, readModelsChecksum } from './projection-runner';
import { remoteRebuild } from './replay-remote';

const usage = `usage: npm run replay -- [--projection NAME] [--json] [--server URL | --in-place | --in-memory]
  (default)       rebuild beside the live read models, one projection at a time, and switch over when caught up:
                  readers keep answering from the live generation meanwhile (the read store nobody else writes)
  --server URL    ask the running product at URL to rebuild (it owns its read models); REPLAY_TOKEN is an
                  operator's access token, or --operator EMAIL with the password on stdin
  --in-place      the old way: drop the chosen read models, then replay them (empty until it ends)
  --in-memory     rebuild in memory and only report (a check beside a running server)`;

/** How long a retired generation stays after the switch-over, for readers in other processes to follow it. */
const RETIRE_GRACE_MS = 2000;

/**
 * What a replay prints: `events` is the log's events replayed (each projection reads all of them), `events_per_second`
 * the rate they were read at over all projections, the checksum the one GET /api/v1/admin/projections shows.
 */
type Report = { mode: string; events: number; seconds: number; events_per_second: number; checksum: string; projections: Record<string, string> };

function progressBar() {
  return new cliProgress.SingleBar(
    // The bar follows the log position (how far through the log), the count is of events read: EventStoreDB's
    // positions are byte offsets, so the two differ there.
    { format: 'replay {name} [{bar}] {percentage}% of the log | {events} events | {rate} events/s', stream: process.stderr, noTTYOutput: true, notTTYSchedule: 1000 },
    cliProgress.Presets.shades_classic,
  );
}

/** The configured read store (MongoDB when MONGODB_URL is set, else the SQLite file in DATA_DIR), through its generations. */
async function configuredReadStore(config: Config, inMemory: boolean): Promise<GenerationalReadStore> {
  if (inMemory || config.readStoreKind === 'memory') return new GenerationalReadStore(new MemoryReadStore());
  if (config.readStoreKind === 'mongodb') return new GenerationalReadStore(await MongoReadStore.connect(config.MONGODB_URL!, config.MONGODB_DATABASE));
  return new GenerationalReadStore(new SqliteReadStore({ filename: readModelsFile(config) }));
}

/** The event store, counting the events read through it (the rebuild's count; positions are not counts everywhere). */
function counting(eventStore: EventStore): { store: EventStore; read: () => number } {
  let read = 0;
  // Around the log as projections read it: the runner would otherwise take that view of the store inside, uncounted.
  const store = new Proxy(readModelLog(eventStore), {
    get(target, property, receiver) {
      if (property === 'readAll') {
        return async (...args: Parameters<EventStore['readAll']>) => {
          const events = await target.readAll(...args);
          read += events.length;
          return events;
        };
      }
      const value = Reflect.get(target, property, receiver) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { store, read: () => read };
}

/**
 * Each projection rebuilt as the console's Rebuild does it (DESIGN.md §5): its next generation is written beside the
 * live one from position 0 while every reader keeps reading the live one, then names and checkpoint switch in one
 * commit, and the old generation is dropped after a grace. Only for a read store no running server writes: the
 * SQLite file's writer lock says so (and the replay refuses, naming --server); on MongoDB that is the operator's word.
 */
async function generationalRebuild(eventStore: EventStore, readStore: GenerationalReadStore, projections: Projection[]): Promise<Omit<Report, 'mode'>> {
  await readStore.load();
  // The first write takes the SQLite file's writer lock, or says that a server holds it, before anything is built.
  try {
    await readStore.inner.drop('_replay_writer_probe', []);
  } catch (error) {
    const held = error instanceof Error && /held by another process/.test(error.message);
    if (!held) throw error;
    throw new Error(
      'A running server writes these read models: let it rebuild them without downtime with --server URL (REPLAY_TOKEN, or --operator EMAIL), or use the console\'s Rebuild; --in-memory only checks',
      { cause: error },
    );
  }
  await readStore.dropRetired();
  const { store, read } = counting(eventStore);
  const runner = new ProjectionRunner({ eventStore: store, readStore, projections, retireAfterMs: RETIRE_GRACE_MS });
  const bar = progressBar();
  const started = performance.now();
  let replayed = 0;
  for (const projection of projections) {
    const from = read();
    const began = performance.now();
    const rate = () => Math.round((read() - from) / Math.max((performance.now() - began) / 1000, 1e-9));
    bar.start(100, 0, { name: projection.name, events: 0, rate: 0 });
    const { done } = await runner.rebuild(projection.name);
    let finished = false;
    void done.finally(() => (finished = true));
    while (!finished) {
      const state = runner.stateOf(projection.name);
      if (state.state === 'rebuilding') bar.update(Math.round(state.progress * 100), { events: read() - from, rate: rate() });
      await Promise.race([done, sleep(200)]);
    }
    const state = runner.stateOf(projection.name);
    if (state.state === 'failed') {
      bar.stop();
      throw new Error(`${projection.name} failed at event ${state.event.position} (${state.event.type} on ${state.event.stream}): ${state.error}; the live generation stays`);
    }
    bar.update(100, { events: read() - from, rate: rate() });
    bar.stop();
    replayed = Math.max(replayed, read() - from);
    process.stderr.write(`${projection.name}: switched over to generation ${readStore.generationOf(projection.collections[0]!)}\n`);
  }
  const seconds = (performance.now() - started) / 1000;
  // The retired generations go once readers in other processes have followed the switch-over.
  await sleep(RETIRE_GRACE_MS + 200);
  await readStore.dropRetired();
  return { ...(await summary(replayed, seconds, readStore, projections)), events_per_second: Math.round(read() / Math.max(seconds, 1e-9)) };
}

/** The old way (`--in-place`), or a check in memory (`--in-memory`): drop the read models, then replay the log into them. */
async function replayInPlace(eventStore: EventStore, readStore: GenerationalReadStore, projections: Projection[]): Promise<Omit<Report, 'mode'>> {
  await readStore.load();
  for (const p of projections) await readStore.drop(p.name, p.collections);
  const runner = new ProjectionRunner({ eventStore, readStore, projections });
  const head = await eventStore.headPosition();
  const bar = progressBar();
  bar.start(Math.max(head, 1), 0, { name: projections.length === 1 ? projections[0]!.name : 'all', rate: 0, events: 0 });
  const started = performance.now();
  const count = await runner.catchUp((position, n) => {
    bar.update(Math.min(position, head), { events: n, rate: Math.round(n / ((performance.now() - started) / 1000)) });
  });
  const seconds = (performance.now() - started) / 1000;
  bar.update(Math.max(head, 1), { events: count, rate: Math.round(count / Math.max(seconds, 1e-9)) });
  bar.stop();
  return summary(count, seconds, readStore, projections);
}

async function summary(events: number, seconds: number, readStore: ReadStore, projections: Projection[]): Promise<Omit<Report, 'mode'>> {
  return {
    events,
    seconds: Number(seconds.toFixed(3)),
    events_per_second: Math.round(events / Math.max(seconds, 1e-9)),
    checksum: await readModelsChecksum(readStore, projections),
    projections: Object.fromEntries(await Promise.all(projections.map(async (p) => [p.name, await projectionChecksum(readStore, p)]))),
  };
}

/**
 * `npm run replay -- [--projection NAME] [--json] [--server URL | --in-place | --in-memory]`: rebuilds read models
 * from position 0 and prints the event count, the rate and the read models' checksum (equal to the live one, see
 * GET /api/v1/admin/projections), with a progress bar on stderr. On the configured adapters: EventStoreDB and
 * MongoDB when their URLs are set, else DATA_DIR's SQLite files.
 */
async function main() {
  const { values } = parseArgs({
    options: {
      projection: { type: 'string' },
      json: { type: 'boolean', default: false },
      'in-memory': { type: 'boolean', default: false },
      'in-place': { type: 'boolean', default: false },
      server: { type: 'string' },
      operator: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(usage);
    return;
  }
  if ([values.server !== undefined, values['in-place'], values['in-memory']].filter(Boolean).length > 1) {
    console.error(`Choose one of --server, --in-place and --in-memory\n${usage}`);
    process.exit(2);
  }
  const projections = values.projection ? allProjections.filter((p) => p.name === values.projection) : allProjections;
  if (projections.length === 0) {
    console.error(`Unknown projection ${values.projection}; known: ${allProjections.map((p) => p.name).join(', ')}`);
    process.exit(2);
  }
  const print = (report: Report) => {
    if (values.json) process.stdout.write(JSON.stringify(report) + '\n');
    else {
      console.log(`events: ${report.events}`);
      console.log(`events/s: ${report.events_per_second} (${report.seconds} s)`);
      console.log(`checksum: ${report.checksum}`);
      for (const [name, sum] of Object.entries(report.projections)) console.log(`  ${name}: ${sum}`);
    }
  };
  if (values.server !== undefined) {
    print({ mode: 'server', ...(await remoteRebuild({ server: values.server, operator: values.operator, projections, bar: progressBar() })) });
    return;
  }
  const config = loadConfig();
  const inMemory = values['in-memory'] || config.readStoreKind === 'memory';
  // Decrypting, as the live projector reads: an erased person's fields read as erased.
  const eventStore = await openEventStore(config);
  const readStore = await configuredReadStore(config, inMemory);
  try {
    // The outcome is printed (and the exit status set) before the stores close.
    if (inMemory) print({ mode: 'in-memory', ...(await replayInPlace(eventStore, readStore, projections)) });
    else if (values['in-place']) print({ mode: 'in-place', ...(await replayInPlace(eventStore, readStore, projections)) });
    else print({ mode: 'generations', ...(await generationalRebuild(eventStore, readStore, projections)) });
  } catch (error) {
    fail(error);
  } finally {
    await readStore.close();
    await eventStore.close();
  }
}

function fail(error: unknown) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}

main().then(
  () => process.exit(),
  (error: unknown) => {
    fail(error);
    process.exit();
  },
);
