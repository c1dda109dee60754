import { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { availableChannels, blobStoreFromConfig, createAdapters, createBaseApp, createHttpServer, createLogger, createMetrics, loadConfig, runService, tokensFromConfig, writingAssistantFromConfig } from '@telemed/platform';
import { MedicineCatalogue } from '@telemed/medicines';
import { allProjections, checkpointWaiter, createQueryService, readModelTokenCheck } from './index';

/**
 * The query service alone (a container). With PROJECTOR=on it also runs the projections (run exactly one such
 * replica); the others serve reads and wait for X-Min-Position through the stored checkpoints.
 */
const config = loadConfig();
const projector = process.env.PROJECTOR !== 'off';
const logger = createLogger({ level: config.LOG_LEVEL, name: 'query' });
const metrics = createMetrics();
const adapters = await createAdapters(config, logger, metrics);
const { tokens } = tokensFromConfig(config);
// Clinical records: the encrypted uploads (BLOB_STORE: GridFS when MongoDB is configured) and the medicine catalogue.
const blobs = await blobStoreFromConfig(config, adapters.eventStore.keys);
const medicines = new MedicineCatalogue({ eventStore: adapters.eventStore, blobs });
const query = createQueryService({
  ...adapters,
  tokens,
  registry: new OpenAPIRegistry(),
  logger,
  clock: () => new Date(),
  checkToken: readModelTokenCheck(adapters.readStore),
  waitForPosition: projector ? undefined : checkpointWaiter(adapters.readStore, allProjections),
  records: { blobs, medicines, publicUrl: config.publicUrl },
  writing: writingAssistantFromConfig(config),
  // What the Profile offers: the channels this deployment's settings configure (the command service sends on them).
  messageChannels: availableChannels(config.messaging),
  startingCredits: config.STARTING_CREDITS,
  seller: config.seller,
});
metrics.gauge('telemed_projection_lag_events', 'Events in the log not yet applied, by projection', ['projection'], async (set) => {
  // Counted by reading the events after each stored checkpoint: EventStoreDB's positions are byte offsets, not counts.
  for (const p of allProjections) set({ projection: p.name }, await query.runner.eventsAfter((await adapters.readStore.getCheckpoint(p.name))?.position ?? 0));
});
const base = createBaseApp({
  config,
  logger,
  metrics,
  ready: async () => {
    const lowest = Math.min(...(await Promise.all(allProjections.map(async (p) => (await adapters.readStore.getCheckpoint(p.name))?.position ?? 0))));
    const lag = await query.runner.eventsAfter(lowest, 101); // in events, read up to just past the limit
    return { ok: lag <= 100, lag, projector, adapters: adapters.kinds };
  },
});
base.mountApi('/api/v1', [query]);
base.finish();
if (projector) {
  await query.runner.catchUp();
  await query.runner.start();
}
await runService({
  name: 'query',
  server: createHttpServer(base.app, config),
  port: config.PORT,
  host: config.HOST,
  logger,
  stop: async () => {
    await query.runner.stop();
    await adapters.close();
    await blobs.close();
  },
});
