import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { API_TEXTS, errorBody } from '@telemed/contracts';
import type { Metrics } from '../metrics';

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * `/metrics` for a scraper holding METRICS_TOKEN (`Authorization: Bearer <token>`): 401 without it; 404 when no
 * token is configured, so an unconfigured product never publishes its internals.
 */
export function metricsRoute(metrics: Metrics, token: string | undefined): RequestHandler {
  const expected = token ? digest(token) : null;
  return (req, res, next) => {
    if (!expected) {
      res.status(404).json(errorBody(404, API_TEXTS.notFound));
      return;
    }
    const match = /^Bearer (.+)$/.exec(req.get('authorization') ?? '');
    if (!match || !timingSafeEqual(digest(match[1]!), expected)) {
      res.status(401).set('WWW-Authenticate', 'Bearer realm="metrics"').json(errorBody(401, 'A metrics token is required'));
      return;
    }
    metrics.registry.metrics().then(
      (text) => void res.set('Content-Type', metrics.registry.contentType).send(text),
      next,
    );
  };
}
