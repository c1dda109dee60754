import type { RequestHandler } from 'express';

/** Headers a page on another origin may send: the bearer token, JSON bodies, react-admin's `Range`, read-your-writes. */
export const CORS_ALLOWED_HEADERS = ['Authorization', 'Content-Type', 'Range', 'X-Min-Position', 'X-Correlation-Id'] as const;
/** Headers such a page may read: ra-data-simple-rest's `Content-Range` totals, and the log positions of read-your-writes. */
export const CORS_EXPOSED_HEADERS = ['Content-Range', 'X-Total-Is-Lower-Bound', 'X-Event-Position', 'X-Read-Model-Position', 'X-Read-Model-Stale'] as const;

/**
 * CORS for the API, only for the configured origins (`CORS_ORIGINS`); the product's own pages are same-origin and need
 * none. Bearer tokens, not cookies: credentials are not allowed. A preflight from an allowed origin is answered 204
 * here; one from any other origin gets no CORS headers, so the browser refuses the call.
 */
export function cors(origins: readonly string[]): RequestHandler {
  const allowed = new Set(origins);
  return (req, res, next) => {
    const origin = req.get('Origin');
    if (allowed.size > 0) res.vary('Origin');
    if (!origin || !allowed.has(origin)) return next();
    res.set('Access-Control-Allow-Origin', origin);
    res.set('Access-Control-Expose-Headers', CORS_EXPOSED_HEADERS.join(', '));
    if (req.method === 'OPTIONS' && req.get('Access-Control-Request-Method')) {
      res.set('Access-Control-Allow-Methods', 'GET, POST, PUT, PATCH, DELETE');
      res.set('Access-Control-Allow-Headers', CORS_ALLOWED_HEADERS.join(', '));
      res.set('Access-Control-Max-Age', '600');
      res.status(204).end();
      return;
    }
    next();
  };
}
