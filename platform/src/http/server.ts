import { createServer, type RequestListener, type Server } from 'node:http';
import type { Config } from '../config';

export type HttpServerConfig = Pick<Config, 'HTTP_HEADERS_TIMEOUT_MS' | 'HTTP_REQUEST_TIMEOUT_MS' | 'HTTP_KEEP_ALIVE_TIMEOUT_MS'>;

/**
 * Every HTTP server the product creates: a client that sends its headers (or its whole request) too slowly is
 * dropped, and idle keep-alive connections are closed, after the configured times rather than Node's defaults.
 */
export function createHttpServer(app: RequestListener, config: HttpServerConfig): Server {
  return createServer(
    {
      headersTimeout: config.HTTP_HEADERS_TIMEOUT_MS,
      requestTimeout: config.HTTP_REQUEST_TIMEOUT_MS,
      keepAliveTimeout: config.HTTP_KEEP_ALIVE_TIMEOUT_MS,
      // How often Node looks for connections over those times (its default, 30 s, would let them overrun).
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(config.HTTP_HEADERS_TIMEOUT_MS / 4))),
    },
    app,
  );
}
