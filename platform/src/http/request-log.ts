import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger } from '../logger';
import type { Metrics } from '../metrics';

const CORRELATION_ID = /^[A-Za-z0-9._:-]{1,100}$/;

/**
 * Gives every request a correlation id (the caller's X-Correlation-Id when well-formed) and logs its outcome:
 * method, route pattern, status and duration. Never the query, headers or body, which may carry tokens or health data.
 */
export function requestLog(logger: Logger, metrics?: Metrics): RequestHandler {
  return (req, res, next) => {
    const given = req.get('X-Correlation-Id');
    const correlationId = given && CORRELATION_ID.test(given) ? given : randomUUID();
    req.headers['x-correlation-id'] = correlationId;
    res.set('X-Correlation-Id', correlationId);
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const route = req.route?.path ? `${req.baseUrl}${String(req.route.path)}` : req.baseUrl || 'unmatched';
      const fields = {
        correlation_id: correlationId,
        method: req.method,
        route,
        status: res.statusCode,
        ms: Number((process.hrtime.bigint() - started) / 1000n) / 1000,
      };
      metrics?.requestDuration.observe({ method: req.method, route, status: String(res.statusCode) }, fields.ms / 1000);
      if (res.statusCode >= 500) logger.error(fields, 'request failed');
      else logger.info(fields, 'request');
    });
    next();
  };
}
