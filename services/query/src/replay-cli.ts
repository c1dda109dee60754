import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import { GenerationalReadStore, MemoryReadStore, SqliteReadStore, loadConfig, openEventStore, readModelsFile } from '@telemed/platform';
import { allProjections } from './projections';
import { ProjectionRunner, projectionChecksum, readModelsChecksum } from './projection-runner';

/**
 * `npm run replay -- [--projection NAME] [--json] [--in-memory]`: rebuilds read models from position 0 and prints the
 * event count, the rate and the read models' checksum (equal to the live one, see GET /api/v1/admin/projections).
 * With the embedded SQLite read models (the default) it rebuilds them in DATA_DIR/read-models.db, dropping the chosen
 * projections first; a running server holds that file and the replay refuses. With --in-memory (or READ_STORE other
 * than sqlite) it rebuilds in memory and only reports: a check that works beside a running server.
 */
async function main() {
  const { values } = parseArgs({ options: { projection: { type: 'string' }, json: { type: 'boolean', default: false }, 'in-memory': { type: 'boolean', default: false } } });
  const projections = values.projection ? allProjections.filter((p) => p.name === values.projection) : allProjections;
  if (projections.length === 0) {
    console.error(`Unknown projection ${values.projection}; known: ${allProjections.map((p) => p.name).join(', ')}`);
    process.exit(2);
  }
  const config = loadConfig();
  // Decrypting, as the live projector reads: an erased person's fields read as erased.
  const eventStore = await openEventStore(config);
  // Through the generations, as the server reads them: a read model switched over by an online rebuild lives under
  // its generation's names, and that is the one to rebuild.
  const readStore = new GenerationalReadStore(
    config.readStoreKind === 'sqlite' && !values['in-memory'] ? new SqliteReadStore({ filename: readModelsFile(config) }) : new MemoryReadStore(),
  );
  await readStore.load();
  for (const p of projections) await readStore.drop(p.name, p.collections);
  const runner = new ProjectionRunner({ eventStore, readStore, projections });
  const head = await eventStore.headPosition();
  const bar = new cliProgress.SingleBar(
    // The bar follows the log position (how far through the log), the count is of events read: EventStoreDB's
    // positions are byte offsets, so the two differ there.
    { format: 'replay [{bar}] {percentage}% of the log | {events} events | {rate} events/s', stream: process.stderr, noTTYOutput: true, notTTYSchedule: 1000 },
    cliProgress.Presets.shades_classic,
  );
  bar.start(Math.max(head, 1), 0, { rate: 0, events: 0 });
  const started = performance.now();
  const count = await runner.catchUp((position, n) => {
    bar.update(Math.min(position, head), { events: n, rate: Math.round(n / ((performance.now() - started) / 1000)) });
  });
  const seconds = (performance.now() - started) / 1000;
  bar.update(Math.max(head, 1), { events: count, rate: Math.round(count / Math.max(seconds, 1e-9)) });
  bar.stop();
  const result = {
    events: count,
    seconds: Number(seconds.toFixed(3)),
    events_per_second: Math.round(count / Math.max(seconds, 1e-9)),
    checksum: await readModelsChecksum(readStore, projections),
    projections: Object.fromEntries(await Promise.all(projections.map(async (p) => [p.name, await projectionChecksum(readStore, p)]))),
  };
  if (values.json) process.stdout.write(JSON.stringify(result) + '\n');
  else {
    console.log(`events: ${result.events}`);
    console.log(`events/s: ${result.events_per_second} (${result.seconds} s)`);
    console.log(`checksum: ${result.checksum}`);
    for (const [name, sum] of Object.entries(result.projections)) console.log(`  ${name}: ${sum}`);
  }
  await readStore.close();
  await eventStore.close();
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
