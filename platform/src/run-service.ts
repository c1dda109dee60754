import type { Server } from 'node:http';
import type { Logger } from './logger';
import { installProcessGuards } from './process-guards';
import { closeHttpServer } from './http/server';

/** How long in-flight requests get to finish after a stop signal before their connections are cut. */
const SHUTDOWN_GRACE_MS = 5000;

/**
 * Listens, then shuts down gracefully on SIGINT/SIGTERM: stop accepting, close long-lived connections (`drain`: the
 * notifier's sockets with 1001), let in-flight requests finish within a grace, then run the service's own stop
 * (flush checkpoints, close adapters). Errors that escape everything else are handled by the process guards.
 */
export async function runService(options: {
  name: string;
  server: Server;
  port: number;
  host: string;
  logger: Logger;
  drain?: () => Promise<void>;
  stop: () => Promise<void>;
}) {
  installProcessGuards(options.logger, options.stop);
  await new Promise<void>((resolve) => options.server.listen(options.port, options.host, resolve));
  options.logger.info({ service: options.name, port: options.port }, 'listening');
  let stopping = false;
  const shutdown = async () => {
    await closeHttpServer(options.server, { graceMs: SHUTDOWN_GRACE_MS, drain: options.drain });
    await options.stop();
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      options.logger.info({ signal }, 'shutting down');
      shutdown().then(
        () => process.exit(0),
        (error: unknown) => {
          options.logger.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
    });
  }
}
