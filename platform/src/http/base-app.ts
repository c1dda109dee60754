import express, { type Express, type RequestHandler } from 'express';
import helmet from 'helmet';
import { API_TEXTS, MAX_REQUEST_BODY_BYTES } from '@telemed/contracts';
import { HttpError, errorHandler } from './errors';
import { requestLog } from './request-log';
import type { Logger } from '../logger';
import type { Metrics } from '../metrics';

/**
 * The HTTP shell every service shares: security headers, /healthz, /readyz, /metrics, request logs and JSON bodies
 * under /api. Call `finish` after mounting the service's routes: unknown API paths answer 404, errors `{detail}`.
 */
export function createBaseApp(options: { logger: Logger; metrics: Metrics; ready: () => Promise<{ ok: boolean } & Record<string, unknown>> }) {
  const app: Express = express();
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
  app.get('/readyz', (async (_req, res) => {
    const { ok, ...details } = await options.ready();
    res.status(ok ? 200 : 503).json({ status: ok ? 'ready' : 'not_ready', ...details });
  }) as RequestHandler);
  app.get('/metrics', (async (_req, res) => {
    res.set('Content-Type', options.metrics.registry.contentType).send(await options.metrics.registry.metrics());
  }) as RequestHandler);
  app.use('/api', requestLog(options.logger, options.metrics));
  app.use('/api', express.json({ limit: MAX_REQUEST_BODY_BYTES, type: ['application/json', 'application/*+json'] }));
  return {
    app,
    finish(extra?: (app: Express) => void) {
      app.use('/api', (_req, _res, next) => next(new HttpError(404, API_TEXTS.notFound)));
      extra?.(app);
      app.use(errorHandler(options.logger));
    },
  };
}
