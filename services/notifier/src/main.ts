import { hostname } from 'node:os';
import { AccessAudit, createAdapters, createBaseApp, createHttpServer, createLogger, createMetrics, loadConfig, runService, socketLimitsFromConfig, tokensFromConfig } from '@telemed/platform';
import { appointmentMessageView, allProjections, checkpointWaiter, followLogIfReadModelsAreLocal, readModelTokenCheck } from '@telemed/query';
import { createNotifier } from './index';

/**
 * The notifier alone (a container): consumes the bus with a durable consumer of its own (NOTIFIER_ID, default the
 * host name) and pushes messages to the sockets connected to this replica. Scale out behind a plain load balancer.
 */
const config = loadConfig();
const logger = createLogger({ level: config.LOG_LEVEL, name: 'notifier' });
const metrics = createMetrics();
const adapters = await createAdapters(config, logger, metrics);
const { tokens } = tokensFromConfig(config);
const local = await followLogIfReadModelsAreLocal(adapters, allProjections);
const waitForPosition = checkpointWaiter(adapters.readStore, allProjections.filter((p) => p.name === 'appointments' || p.name === 'users' || p.name === 'consultations'));
const notifier = createNotifier({
  tokens,
  readStore: adapters.readStore,
  // The messages show a visit's reason, which read models keep sealed: opened for a party who is connected.
  appointmentView: appointmentMessageView(adapters.readStore, adapters.eventStore.keys),
  bus: adapters.bus,
  logger,
  audit: new AccessAudit({ eventStore: adapters.eventStore, clock: () => new Date(), logger }),
  checkToken: readModelTokenCheck(adapters.readStore),
  waitForPosition: (position) => waitForPosition(position, 5000),
  idleTimeoutMs: config.NOTIFIER_IDLE_TIMEOUT_MS,
  limits: socketLimitsFromConfig(config),
  durableName: `notifier-${config.NOTIFIER_ID ?? hostname().replace(/[^A-Za-z0-9_-]/g, '-')}`,
  disconnectGraceMs: config.CONSULTATION_DISCONNECT_GRACE_MS,
});
metrics.gauge('telemed_websocket_open_sockets', 'Open notification sockets', [], (set) => set({}, notifier.openSockets()));
const base = createBaseApp({ config, logger, metrics, ready: async () => ({ ok: true, sockets: notifier.openSockets(), adapters: adapters.kinds }) });
base.finish();
const server = createHttpServer(base.app, config);
server.on('upgrade', (req, socket, head) => {
  if (!notifier.handleUpgrade(req, socket, head)) socket.destroy();
});
await notifier.start();
await runService({
  name: 'notifier',
  server,
  port: config.PORT,
  host: config.HOST,
  logger,
  drain: () => notifier.stop(),
  stop: async () => {
    await local?.stop();
    await adapters.close();
  },
});
