import type { Server } from 'node:http';
import type { Express } from 'express';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import swaggerUi from 'swagger-ui-express';
import { AccessAudit, INTERACTIONS_PATH, availableChannels, messagingFromConfig, blobStoreFromConfig, consultationSettingsFromConfig, videoFromConfig, masterKeysFromConfig, paymentsFromConfig, LOCAL_CHECKOUT_PATH, createAdapters, createBaseApp, closeHttpServer, createHttpServer, createLogger, createMetrics, serveFrontend, socketLimitsFromConfig, tokensFromConfig, writingAssistantFromConfig, type Bus, type Config, type EncryptingEventStore, type Logger, type ReadStore, type TokenCheck, type TokenService } from '@telemed/platform';
import { createCommandService, faultsFromConfig, messagingRouteDepsFromConfig, identityFromConfig, startCommandBackground } from '@telemed/command';
import { MedicineCatalogue } from '@telemed/medicines';
import { appointmentMessageView, allProjections, messageLookups, blogLookups, bookingLookups, walletLookups, consultationLookups, createQueryService, projectionHoldFromConfig, readModelTokenCheck, recordLookups, sweepLookups } from '@telemed/query';
import { createNotifier } from '@telemed/notifier';
import { seedDemoData } from './demo-data';
import { blogPages } from './blog-pages';
import { doctorPageHead } from './doctor-pages';

export interface AppOptions {
  config: Config;
  logger?: Logger;
  /** What "now" is for everything the product decides, token expiry included. */
  clock?: () => Date;
  /**
   * How long access tokens last, in place of ACCESS_TOKEN_TTL_SECONDS: for tests, which move the clock by days or
   * years and go on with the users they signed in before.
   */
  accessTokenTtlSeconds?: number;
  /** Directory of the built frontend; served with a single-page-app fallback when present. */
  frontendDir?: string;
}

/** Composes the command, query and notifier services with the embedded adapters in one process. */
export async function createApp(options: AppOptions) {
  const { config } = options;
  // Every person's data key is wrapped by the master key: production refuses to start without one.
  masterKeysFromConfig(config);
  const logger = options.logger ?? createLogger({ level: config.LOG_LEVEL });
  const clock = options.clock ?? (() => new Date());
  const metrics = createMetrics();
  // Before anything opens: production refuses the local test gateway.
  const payments = paymentsFromConfig(config, logger);
  const adapters = await createAdapters(config, logger, metrics);
  const { eventStore, readStore, bus, checkpoints } = adapters;
  const { secret, tokens } = tokensFromConfig({ ...config, ACCESS_TOKEN_TTL_SECONDS: options.accessTokenTtlSeconds ?? config.ACCESS_TOKEN_TTL_SECONDS }, clock);
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'bearerAuth', { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
  const checkToken = readModelTokenCheck(readStore);
  const identity = identityFromConfig(config, secret);
  const video = videoFromConfig(config);
  const consultation = consultationSettingsFromConfig(config);
  // Clinical records: uploaded files encrypted under each patient's key, and the medicine catalogue (NLEM + brands).
  const blobs = await blobStoreFromConfig(config, eventStore.keys);
  const medicines = new MedicineCatalogue({ eventStore, blobs });
  const records = { blobs, medicines, recordLookups: recordLookups(readStore), storageQuotaBytes: config.recordsQuotaBytes };
  // Messages outside the browser (issue 34): the configured channels, or the development outbox for all of them.
  const messaging = messagingFromConfig(config);
  let background: Awaited<ReturnType<typeof startCommandBackground>> | null = null;
  const command = createCommandService({
    eventStore, tokens, registry, logger, clock, faults: faultsFromConfig(config), checkToken, video, consultation, ...identity, records, bookingLookups: bookingLookups(readStore), gateway: payments.gateway, walletLookups: walletLookups(readStore), startingCredits: config.STARTING_CREDITS,
    messaging: messagingRouteDepsFromConfig(config, messaging, (messageId) => background?.messagesQueued(messageId)),
  });
  const query = createQueryService({ eventStore, readStore, tokens, registry, logger, clock, checkToken, records: { blobs, medicines, publicUrl: config.publicUrl }, writing: writingAssistantFromConfig(config), holdProjections: projectionHoldFromConfig(config.FAULT_INJECTION), messageChannels: availableChannels(config.messaging), startingCredits: config.STARTING_CREDITS, seller: config.seller });
  const notifier = appNotifier({ config, tokens, readStore, eventStore, bus, logger, clock, checkToken, runner: query.runner });
  metrics.gauge('telemed_projection_lag_events', 'Events in the log not yet applied, by projection', ['projection'], async (set) => {
    // Counted by reading the events after each checkpoint: EventStoreDB's positions are byte offsets, not counts.
    for (const p of allProjections) set({ projection: p.name }, await query.runner.lagOf(p.name));
  });
  metrics.gauge('telemed_websocket_open_sockets', 'Open notification sockets', [], (set) => set({}, notifier.openSockets()));

  const openApiDocument = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: { title: 'Telemedicine API', version: '1.0.0', description: 'Appointments, schedules and consultations.' },
    servers: [{ url: '/' }],
  });

  const base = createBaseApp({
    config,
    logger,
    metrics,
    ready: async () => {
      const lag = await query.runner.eventsAfter(query.runner.position, 101); // in events, read up to just past the limit
      return { ok: lag <= 100, lag, adapters: adapters.kinds };
    },
  });
  const { app } = base;
  if (identity.localProvider) {
    app.use('/oidc', identity.localProvider.handler);
    app.use(INTERACTIONS_PATH, identity.localProvider.interactions);
  }
  if (payments.checkoutPages) app.use(LOCAL_CHECKOUT_PATH, payments.checkoutPages);
  serveApiDocs(app, openApiDocument);
  base.mountApi('/api/v1', [command, query]);
  base.finish((app) => {
    blogPages(app, { readStore, frontendDir: options.frontendDir, publicUrl: config.publicUrl });
    if (options.frontendDir && existsSync(join(options.frontendDir, 'index.html'))) {
      const dir = options.frontendDir;
      serveFrontend(app, dir, { doctorPageHead: doctorPageHead({ readStore, publicUrl: config.publicUrl }) });
    }
  });

  const server: Server = createHttpServer(app, config);
  server.on('upgrade', (req, socket, head) => {
    if (!notifier.handleUpgrade(req, socket, head)) socket.destroy();
  });

  return {
    app,
    server,
    eventStore,
    readStore,
    /** Uploaded files (encrypted per patient). */
    blobs,
    /** The bus the relay publishes the log to (tests listen to what leaves the process). */
    bus,
    /** Where the process managers keep their positions (tests wait for one to pass an event). */
    checkpoints,
    tokens,
    runner: query.runner,
    notifier,
    logger,
    metrics,
    openApiDocument,
    /** The development outbox (null where a channel is configured). */
    outbox: messaging.outbox,
    /** Every API route with its access policy. */
    routes: [...command.routes, ...query.routes],
    /** Rebuilds the read models from the log, starts the background work, seeds demo data on an empty store. */
    async start() {
      await query.runner.catchUp();
      await query.runner.start();
      background = await startCommandBackground({
        config,
        eventStore,
        bus,
        checkpoints,
        logger,
        clock,
        video,
        lookups: { ...sweepLookups(readStore), ...consultationLookups(readStore), ...blogLookups(readStore), ...messageLookups(readStore) },
        senders: messaging.senders,
      });
      await notifier.start();
      if (config.DEMO_DATA === 'on' && (await eventStore.headPosition()) === 0) {
        const summary = await seedDemoData(eventStore, clock(), config.STARTING_CREDITS);
        logger.info(summary, 'demo data created');
      }
    },
    runSweepsNow: () => background?.runSweepsNow() ?? Promise.resolve(),
    /** Whether the process managers have acted on the log up to `position` (within `timeoutMs`). */
    waitForProcessManagers: (position: number, timeoutMs: number) => background?.waitForProcessManagers(position, timeoutMs) ?? Promise.resolve(true),
    async listen(port: number, host: string) {
      await new Promise<void>((resolve) => server.listen(port, host, resolve));
      const address = server.address();
      const listening = typeof address === 'object' && address ? address.port : port;
      payments.listening(listening);
      return listening;
    },
    /** Graceful shutdown: stop accepting, close sockets with 1001, let in-flight requests finish (within a grace), flush. */
    async stop(graceMs = 5000) {
      await closeHttpServer(server, { graceMs, drain: () => notifier.stop() });
      await background?.stop();
      await query.runner.stop();
      await adapters.close();
      await blobs.close();
      await messaging.close();
      payments.close();
    },
  };
}

export type App = Awaited<ReturnType<typeof createApp>>;

/** The notifier of the one process: its sockets' tokens, read models and bus are the app's own. */
function appNotifier(deps: {
  config: Config;
  tokens: TokenService;
  readStore: ReadStore;
  eventStore: EncryptingEventStore;
  bus: Bus;
  logger: Logger;
  clock: () => Date;
  checkToken: TokenCheck;
  runner: { waitForPosition(position: number, timeoutMs: number): Promise<boolean> };
}) {
  const { config, tokens, readStore, eventStore, bus, logger, clock, checkToken } = deps;
  return createNotifier({
    tokens,
    readStore,
    // The messages show a visit's reason, which read models keep sealed: opened for a party who is connected.
    appointmentView: appointmentMessageView(readStore, eventStore.keys),
    bus,
    logger,
    audit: new AccessAudit({ eventStore, clock, logger }),
    checkToken,
    waitForPosition: (position) => deps.runner.waitForPosition(position, 2000),
    idleTimeoutMs: config.NOTIFIER_IDLE_TIMEOUT_MS,
    limits: socketLimitsFromConfig(config),
    durableName: config.NOTIFIER_ID ? `notifier-${config.NOTIFIER_ID}` : undefined,
    clock,
    disconnectGraceMs: config.CONSULTATION_DISCONNECT_GRACE_MS,
  });
}

/** The OpenAPI document and its interactive page. */
function serveApiDocs(app: Express, document: object): void {
  app.get('/openapi.json', (_req, res) => void res.json(document));
  app.use(
    '/docs',
    swaggerUi.serve,
    swaggerUi.setup(document, {
      customSiteTitle: 'Telemedicine API',
      // Over a hundred operations: a box that narrows them by tag, as Swagger UI lists only those in view.
      swaggerOptions: { filter: true },
    }),
  );
}
