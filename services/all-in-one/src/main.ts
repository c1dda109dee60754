import { fileURLToPath } from 'node:url';
import { createLogger, installProcessGuards, loadConfig } from '@telemed/platform';
import { createApp } from './app';

const config = loadConfig();
const logger = createLogger({ level: config.LOG_LEVEL });
const frontendDir = config.FRONTEND_DIST ?? fileURLToPath(new URL('../../../frontend/dist', import.meta.url));

const app = await createApp({ config, logger, frontendDir });
installProcessGuards(logger, () => app.stop(1000));
await app.start();
const port = await app.listen(config.PORT, config.HOST);
logger.info({ port, dataDir: config.dataDir }, `serving on http://localhost:${port} (API docs at /docs)`);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    app.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}
