import type { Server } from 'node:http';
import type { Logger } from './logger';

/**
 * Listens, then shuts down gracefully on SIGINT/SIGTERM: stop accepting, let in-flight requests finish, run the
 * service's own stop (close sockets with 1001, flush checkpoints, close adapters).
 */
export async function runService(options: { name: string; server: Server; port: number; host: string; logger: Logger; stop: () => Promise<void> }) {
  await new Promise<void>((resolve) => options.server.listen(options.port, options.host, resolve));
  options.logger.info({ service: options.name, port: options.port }, 'listening');
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      options.logger.info({ signal }, 'shutting down');
      options.server.close();
      options.server.closeIdleConnections();
      options.stop().then(
        () => process.exit(0),
        (error: unknown) => {
          options.logger.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
    });
  }
}
