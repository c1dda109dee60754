import { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { INTERACTIONS_PATH, LOCAL_CHECKOUT_PATH, paymentsFromConfig, messagingFromConfig, blobStoreFromConfig, consultationSettingsFromConfig, videoFromConfig, createAdapters, createBaseApp, createHttpServer, createLogger, createMetrics, loadConfig, runService, tokensFromConfig } from '@telemed/platform';
import { MedicineCatalogue } from '@telemed/medicines';
import { allProjections, messageLookups, blogLookups, bookingLookups, walletLookups, consultationLookups, followLogIfReadModelsAreLocal, readModelTokenCheck, recordLookups, sweepLookups } from '@telemed/query';
import { createCommandService, faultsFromConfig, messagingRouteDepsFromConfig, identityFromConfig, startCommandBackground } from './index';

/** The command service alone (a container): the write API, the bus relay and the process managers. */
const config = loadConfig();
const logger = createLogger({ level: config.LOG_LEVEL, name: 'command' });
const metrics = createMetrics();
const adapters = await createAdapters(config, logger, metrics);
const local = await followLogIfReadModelsAreLocal(adapters, allProjections);
const { secret, tokens } = tokensFromConfig(config);
const identity = identityFromConfig(config, secret);
const clock = () => new Date();
const video = videoFromConfig(config);
// Clinical records: uploads encrypted under each patient's key (BLOB_STORE: GridFS when MongoDB is configured), and
// the medicine catalogue (NLEM 2022 and the latest imported brands), as the all-in-one app composes them.
const blobs = await blobStoreFromConfig(config, adapters.eventStore.keys);
const medicines = new MedicineCatalogue({ eventStore: adapters.eventStore, blobs });
// Messages outside the browser: the configured channels (the outbox only outside production).
const messaging = messagingFromConfig(config);
// Packs are paid through Razorpay (the local test gateway outside production).
const payments = paymentsFromConfig(config, logger);
let background: Awaited<ReturnType<typeof startCommandBackground>> | null = null;
const command = createCommandService({
  eventStore: adapters.eventStore,
  tokens,
  registry: new OpenAPIRegistry(),
  logger,
  clock,
  faults: faultsFromConfig(config),
  checkToken: readModelTokenCheck(adapters.readStore),
  video,
  consultation: consultationSettingsFromConfig(config),
  ...identity,
  records: { blobs, medicines, recordLookups: recordLookups(adapters.readStore), storageQuotaBytes: config.recordsQuotaBytes },
  bookingLookups: bookingLookups(adapters.readStore),
  gateway: payments.gateway,
  walletLookups: walletLookups(adapters.readStore),
  startingCredits: config.STARTING_CREDITS,
  messaging: messagingRouteDepsFromConfig(config, messaging, (messageId) => background?.messagesQueued(messageId)),
});
const base = createBaseApp({ config, logger, metrics, ready: async () => ({ ok: true, adapters: adapters.kinds }) });
if (identity.localProvider) {
  base.app.use('/oidc', identity.localProvider.handler);
  base.app.use(INTERACTIONS_PATH, identity.localProvider.interactions);
}
if (payments.checkoutPages) base.app.use(LOCAL_CHECKOUT_PATH, payments.checkoutPages);
base.mountApi('/api/v1', [command]);
base.finish();
background = await startCommandBackground({
  config,
  ...adapters,
  logger,
  clock,
  video,
  lookups: { ...sweepLookups(adapters.readStore), ...consultationLookups(adapters.readStore), ...blogLookups(adapters.readStore), ...messageLookups(adapters.readStore) },
  senders: messaging.senders,
});
const started = background;
await runService({
  name: 'command',
  server: createHttpServer(base.app, config),
  port: config.PORT,
  host: config.HOST,
  logger,
  stop: async () => {
    payments.close();
    await started.stop();
    await messaging.close();
    await local?.stop();
    await adapters.close();
    await blobs.close();
  },
});
payments.listening(config.PORT);
