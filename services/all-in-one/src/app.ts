import express from 'express';
import helmet from 'helmet';
import { createServer, type Server } from 'node:http';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import swaggerUi from 'swagger-ui-express';
import { API_TEXTS, MAX_REQUEST_BODY_BYTES } from '@telemed/contracts';
import {
  HttpError,
  LoginCookie,
  LoginRateLimiter,
  OidcClient,
  createLocalOidcProvider,
  TokenService,
  createAdapters,
  createLogger,
  createMetrics,
  errorHandler,
  requestLog,
  loadTokenSecret,
  type Config,
  type Logger,
  type Subscription,
  type TokenCheck,
} from '@telemed/platform';
import { createCommandService, startRelay, startSlotReleaser, startSweeps } from '@telemed/command';
import { allProjections, createQueryService, type AppointmentDoc, type SessionDoc, type SlotDoc, type UserDoc } from '@telemed/query';
import { createNotifier } from '@telemed/notifier';
import { seedDemoData } from './demo-data';

export interface AppOptions {
  config: Config;
  logger?: Logger;
  clock?: () => Date;
  /** Directory of the built frontend; served with a single-page-app fallback when present. */
  frontendDir?: string;
}

/** Composes the command, query and notifier services with the embedded adapters in one process. */
export async function createApp(options: AppOptions) {
  const { config } = options;
  const logger = options.logger ?? createLogger({ level: config.LOG_LEVEL });
  const clock = options.clock ?? (() => new Date());
  const metrics = createMetrics();
  const adapters = await createAdapters(config, logger, metrics);
  const { eventStore, readStore, bus, checkpoints } = adapters;
  const secret = loadTokenSecret({ secret: config.TOKEN_SECRET, dataDir: config.dataDir, production: config.production });
  const tokens = new TokenService({
    secret,
    issuer: config.TOKEN_ISSUER,
    audience: config.TOKEN_AUDIENCE,
    ttlSeconds: config.ACCESS_TOKEN_TTL_SECONDS,
  });
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'bearerAuth', { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });

  const faults =
    config.FAULT_INJECTION === 'crash-after-slot-reserved'
      ? { afterSlotReserved: () => process.kill(process.pid, 'SIGKILL') }
      : undefined;
  const loginLimiter = new LoginRateLimiter({
    perAccount: config.LOGIN_RATE_LIMIT_PER_ACCOUNT,
    perAddress: config.LOGIN_RATE_LIMIT_PER_ADDRESS,
    windowSeconds: config.LOGIN_RATE_LIMIT_WINDOW_SECONDS,
  });
  const users = readStore.collection<UserDoc>('users');
  const sessions = readStore.collection<SessionDoc>('sessions');
  const checkToken: TokenCheck = async (claims) => {
    if ((await users.get(claims.user_id))?.active === false) return API_TEXTS.accountDisabled;
    if (claims.session_id && (await sessions.get(claims.session_id))?.ended_at) return API_TEXTS.sessionEnded;
    return null;
  };
  const { identity } = config;
  const oidc = new OidcClient({ ...identity, allowHttp: identity.kind === 'local' });
  const loginCookie = new LoginCookie(secret, { path: '/api/v1/auth', secure: config.publicUrl.startsWith('https:') });
  // The local provider never runs in production: loadConfig refuses to start there without a Google client.
  const localProvider = identity.kind === 'local' ? createLocalOidcProvider({ ...identity, redirectUris: [identity.redirectUri] }) : null;
  const command = createCommandService({ eventStore, tokens, registry, logger, clock, faults, loginLimiter, checkToken, oidc, loginCookie });
  const query = createQueryService({ eventStore, readStore, tokens, registry, logger, clock, checkToken });
  const notifier = createNotifier({
    tokens,
    readStore,
    bus,
    logger,
    waitForPosition: (position) => query.runner.waitForPosition(position, 2000),
    idleTimeoutMs: config.NOTIFIER_IDLE_TIMEOUT_MS,
    durableName: config.NOTIFIER_ID ? `notifier-${config.NOTIFIER_ID}` : undefined,
  });
  metrics.gauge('telemed_projection_lag_events', 'Events in the log not yet applied, by projection', ['projection'], async (set) => {
    const head = await eventStore.headPosition();
    for (const p of allProjections) set({ projection: p.name }, Math.max(0, head - query.runner.checkpointOf(p.name)));
  });
  metrics.gauge('telemed_websocket_open_sockets', 'Open notification sockets', [], (set) => set({}, notifier.openSockets()));

  const openApiDocument = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: { title: 'Telemedicine API', version: '1.0.0', description: 'Appointments, schedules and consultations.' },
    servers: [{ url: '/' }],
  });

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');
  app.use(
    helmet({
      contentSecurityPolicy: {
        directives: {
          'script-src': ["'self'", "'unsafe-inline'"],
          'connect-src': ["'self'", 'ws:', 'wss:'],
          'media-src': ["'self'", 'blob:'],
          // Plain-HTTP deployments (a clinic's LAN, localhost) must keep working; TLS is the proxy's job.
          'upgrade-insecure-requests': null,
        },
      },
    }),
  );
  app.get('/healthz', (_req, res) => void res.json({ status: 'ok' }));
  app.use('/api', requestLog(logger, metrics));
  app.get('/metrics', async (_req, res) => {
    res.set('Content-Type', metrics.registry.contentType).send(await metrics.registry.metrics());
  });
  app.get('/readyz', async (_req, res) => {
    const head = await eventStore.headPosition();
    const lag = head - query.runner.position;
    res.status(lag <= 100 ? 200 : 503).json({ status: lag <= 100 ? 'ready' : 'catching_up', lag, adapters: adapters.kinds });
  });
  if (localProvider) app.use('/oidc', localProvider.handler);
  app.get('/openapi.json', (_req, res) => void res.json(openApiDocument));
  app.use('/docs', swaggerUi.serve, swaggerUi.setup(openApiDocument, { customSiteTitle: 'Telemedicine API' }));

  app.use('/api', express.json({ limit: MAX_REQUEST_BODY_BYTES, type: ['application/json', 'application/*+json'] }));
  app.use('/api/v1', command.router);
  app.use('/api/v1', query.router);
  app.use('/api', (_req, _res, next) => next(new HttpError(404, API_TEXTS.notFound)));

  if (options.frontendDir && existsSync(join(options.frontendDir, 'index.html'))) {
    const dir = options.frontendDir;
    app.use(express.static(dir, { index: false, maxAge: '1h' }));
    app.get(/^(?!\/(api|ws|docs)\b).*/, (_req, res) => res.sendFile(join(dir, 'index.html')));
  }
  app.use(errorHandler(logger));

  const server: Server = createServer(app);
  server.on('upgrade', (req, socket, head) => {
    if (!notifier.handleUpgrade(req, socket, head)) socket.destroy();
  });

  const background: Subscription[] = [];
  let sweeps: ReturnType<typeof startSweeps> | null = null;

  const slots = readStore.collection<SlotDoc>('slots');
  const appointments = readStore.collection<AppointmentDoc>('appointments');
  const lookups = {
    requestsStartedBefore: async (now: Date) =>
      (await appointments.find({ status: 'requested', start: { $lte: now.toISOString() } })).map((a) => a.appointment_id),
    reservationsMadeBefore: async (cutoff: Date) =>
      (await slots.find({ status: 'reserved', reserved_at: { $lte: cutoff.toISOString() } })).map((s) => ({
        slot_id: s.slot_id,
        appointment_id: s.appointment_id!,
        reserved_event_id: s.reserved_event_id!,
      })),
  };

  return {
    app,
    server,
    eventStore,
    readStore,
    tokens,
    runner: query.runner,
    notifier,
    logger,
    metrics,
    openApiDocument,
    /** Every API route with its access policy. */
    routes: [...command.routes, ...query.routes],
    /** Rebuilds the read models from the log, starts the background work, seeds demo data on an empty store. */
    async start() {
      await query.runner.catchUp();
      await query.runner.start();
      background.push(await startRelay({ eventStore, bus, checkpoints, logger }));
      background.push(await startSlotReleaser({ eventStore, checkpoints, logger, clock }));
      await notifier.start();
      sweeps = startSweeps({
        eventStore,
        lookups,
        clock,
        graceMs: config.RESERVATION_HEAL_GRACE_MS,
        intervalMs: config.SWEEP_INTERVAL_MS,
        logger,
      });
      void sweeps.runNow();
      if (config.DEMO_DATA === 'on' && (await eventStore.headPosition()) === 0) {
        const summary = await seedDemoData(eventStore, clock());
        logger.info(summary, 'demo data created');
      }
    },
    runSweepsNow: () => sweeps?.runNow() ?? Promise.resolve(),
    async listen(port: number, host: string) {
      await new Promise<void>((resolve) => server.listen(port, host, resolve));
      const address = server.address();
      return typeof address === 'object' && address ? address.port : port;
    },
    async stop() {
      sweeps?.stop();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await notifier.stop();
      for (const sub of background) await sub.stop();
      await query.runner.stop();
      await adapters.close();
    },
  };
}

export type App = Awaited<ReturnType<typeof createApp>>;
