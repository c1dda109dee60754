import { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { blobStoreFromConfig, createAdapters, createBaseApp, createHttpServer, createLogger, createMetrics, loadConfig, runService, tokensFromConfig } from '@telemed/platform';
import { MedicineCatalogue, allProjections, checkpointWaiter, createQueryService, readModelTokenCheck } from './index';

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
});
metrics.gauge('telemed_projection_lag_events', 'Events in the log not yet applied, by projection', ['projection'], async (set) => {
  const head = await adapters.eventStore.headPosition();
  for (const p of allProjections) set({ projection: p.name }, Math.max(0, head - ((await adapters.readStore.getCheckpoint(p.name))?.position ?? 0)));
});
const base = createBaseApp({
  config,
  logger,
  metrics,
  ready: async () => {
    const head = await adapters.eventStore.headPosition();
    const lowest = Math.min(...(await Promise.all(allProjections.map(async (p) => (await adapters.readStore.getCheckpoint(p.name))?.position ?? 0))));
    return { ok: head - lowest <= 100, lag: head - lowest, projector, adapters: adapters.kinds };
  },
});
base.app.use('/api/v1', query.router);
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
