import { createServer, type RequestListener, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Config } from '../config';
import { watchBody } from './body-deadline';
import { errorBody } from '@telemed/contracts';

export type HttpServerConfig = Pick<Config, 'HTTP_HEADERS_TIMEOUT_MS' | 'HTTP_REQUEST_TIMEOUT_MS' | 'HTTP_UPLOAD_IDLE_TIMEOUT_MS' | 'HTTP_KEEP_ALIVE_TIMEOUT_MS'>;

/**
 * Every HTTP server the product creates: a client that sends its headers too slowly is dropped (Node's
 * headersTimeout), a body that has not arrived within HTTP_REQUEST_TIMEOUT_MS is answered 408, except a streamed
 * upload, cut off only after HTTP_UPLOAD_IDLE_TIMEOUT_MS without a byte (body-deadline.ts: Node's own requestTimeout
 * is off, as it would cut off a large upload on a slow network while it still arrives), and idle keep-alive
 * connections are closed, after the configured times rather than Node's defaults.
 */
export function createHttpServer(app: RequestListener, config: HttpServerConfig): Server {
  const times = { requestMs: config.HTTP_REQUEST_TIMEOUT_MS, uploadIdleMs: config.HTTP_UPLOAD_IDLE_TIMEOUT_MS };
  const server = createServer(
    {
      headersTimeout: config.HTTP_HEADERS_TIMEOUT_MS,
      requestTimeout: 0,
      keepAliveTimeout: config.HTTP_KEEP_ALIVE_TIMEOUT_MS,
      // How often Node looks for connections over the headers time (its default, 30 s, would let them overrun).
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(config.HTTP_HEADERS_TIMEOUT_MS / 4))),
    },
    (req, res) => {
      watchBody(req, res, times);
      app(req, res);
    },
  );
  server.on('clientError', answerUnparsable);
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  openSockets.set(server, sockets);
  return server;
}

/** Node's own answers to requests it could not parse, with a `{detail}` body like every other error (its have none). */
const UNPARSABLE: Record<string, [status: number, reason: string, detail: string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', 'The request headers are too large'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'The request took too long to arrive'],
};

function answerUnparsable(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
  const [status, reason, detail] = UNPARSABLE[error.code ?? ''] ?? [400, 'Bad Request', 'The request could not be read as HTTP'];
  const body = JSON.stringify(errorBody(status, detail));
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}

/** Every connection a server made by createHttpServer holds, upgraded ones included. */
const openSockets = new WeakMap<Server, Set<Socket>>();

/**
 * Graceful close: stop accepting, close idle connections, `drain` the long-lived ones (the notifier's sockets with
 * 1001), let in-flight requests finish within the grace, then cut whatever is left. Node's closeAllConnections cuts
 * only the HTTP server's own connections: an upgraded one (a WebSocket, or one still authenticating) would hold the
 * close, and a stopping process, forever.
 */
export async function closeHttpServer(server: Server, options: { graceMs: number; drain?: () => Promise<void> }): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  await options.drain?.();
  const grace = setTimeout(() => {
    server.closeAllConnections();
    for (const socket of openSockets.get(server) ?? []) socket.destroy();
  }, options.graceMs);
  await closed;
  clearTimeout(grace);
}
