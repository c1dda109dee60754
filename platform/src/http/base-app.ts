import type { IncomingMessage } from 'node:http';
import express, { type Express, type RequestHandler } from 'express';
import helmet from 'helmet';
import compression from 'compression';
import { API_TEXTS, EMBED_FRAME_SOURCES, MAX_REQUEST_BODY_BYTES } from '@telemed/contracts';
import { HttpError, errorHandler } from './errors';
import { requestLog } from './request-log';
import { metricsRoute } from './metrics-route';
import { methodRules } from './method-rules';
import type { DeclaredRoute } from './api-router';
import { cors } from './cors';
import type { Config } from '../config';
import type { Logger } from '../logger';
import type { Metrics } from '../metrics';

/** HSTS only on a request that arrived over HTTPS (req.secure: TLS here, or X-Forwarded-Proto from a trusted proxy). */
const strictTransportSecurity: RequestHandler = (req, res, next) => {
  if (req.secure) res.setHeader('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
  next();
};

/**
 * The HTTP shell every service shares: security headers, /healthz, /readyz, /metrics (with METRICS_TOKEN), request
 * logs and JSON bodies under /api. Call `finish` after mounting the service's routes: unknown API paths answer 404,
 * errors `{detail}`. Proxies are trusted only as TRUST_PROXY says (none by default).
 */
const RAZORPAY_CHECKOUT_ORIGIN = 'https://checkout.razorpay.com';
const RAZORPAY_API_ORIGIN = 'https://api.razorpay.com';

export function createBaseApp(options: {
  config: Pick<Config, 'trustProxy' | 'METRICS_TOKEN'> & Partial<Pick<Config, 'CORS_ORIGINS' | 'payments'>>;
  logger: Logger;
  metrics: Metrics;
  ready: () => Promise<{ ok: boolean } & Record<string, unknown>>;
}) {
  const app: Express = express();
  // Razorpay's checkout is its script, opening its page in a frame (issue 36): allowed only where Razorpay takes payment.
  const razorpay = options.config.payments?.kind === 'razorpay';
  app.disable('x-powered-by');
  app.set('trust proxy', options.config.trustProxy);
  app.use(strictTransportSecurity);
  app.use(
    helmet({
      strictTransportSecurity: false,
      contentSecurityPolicy: {
        directives: {
          // No inline scripts anywhere: the app, /docs and the local identity provider load theirs from files
          // (oidc-provider adds a hash for the one it writes itself).
          'script-src': ["'self'", ...(razorpay ? [RAZORPAY_CHECKOUT_ORIGIN] : [])],
          'connect-src': ["'self'", 'ws:', 'wss:'],
          'media-src': ["'self'", 'blob:'],
          // Videos in blog posts play in their services' own players (issue 16), from these addresses only.
          'frame-src': ["'self'", ...EMBED_FRAME_SOURCES, ...(razorpay ? [RAZORPAY_API_ORIGIN] : [])],
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
  app.get('/metrics', metricsRoute(options.metrics, options.config.METRICS_TOKEN));
  // JSON answers and documents over 1 KB go out compressed (brotli or gzip, as the client accepts); files that are
  // already compressed (the frontend's precompressed assets) are left alone.
  app.use(compression({ threshold: 1024 }));
  // Before the routes: a preflight from an allowed origin (CORS_ORIGINS) is answered here, without a token.
  app.use('/api', cors(options.config.CORS_ORIGINS ?? []));
  app.use('/api', requestLog(options.logger, options.metrics));
  // The raw bytes stay beside the parsed body: a signed webhook (LiveKit's) is verified against exactly what was sent.
  app.use(
    '/api',
    express.json({
      limit: MAX_REQUEST_BODY_BYTES,
      type: ['application/json', 'application/*+json'],
      verify: (req, _res, buf) => void ((req as RawBodyRequest).rawBody = buf),
    }),
  );
  return {
    app,
    /**
     * Mounts the services' API routers at one path, with OPTIONS answered and wrong methods refused (405) from the
     * routes all of them declare.
     */
    mountApi(path: string, services: ReadonlyArray<{ router: RequestHandler; routes: readonly DeclaredRoute[] }>) {
      const rules = methodRules(services.flatMap((service) => service.routes));
      app.use(path, rules.options);
      for (const service of services) app.use(path, service.router);
      app.use(path, rules.notAllowed);
    },
    finish(extra?: (app: Express) => void) {
      app.use('/api', (_req, _res, next) => next(new HttpError(404, API_TEXTS.notFound)));
      extra?.(app);
      app.use(errorHandler(options.logger));
    },
  };
}

type RawBodyRequest = IncomingMessage & { rawBody?: Buffer };

/** The request body's bytes as received (JSON bodies under /api), or null when there was none. */
export function rawBodyOf(req: IncomingMessage): Buffer | null {
  return (req as RawBodyRequest).rawBody ?? null;
}
