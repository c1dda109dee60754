import type { IncomingMessage, ServerResponse } from 'node:http';
import { API_TEXTS, errorBody } from '@telemed/contracts';

/**
 * How long a request body may take. Node's own `requestTimeout` counts from the request's first byte to its last,
 * whatever the body is, so a 20 MB report over a slow mobile network would be cut off at 30 s while still arriving.
 * Instead the product's server turns Node's off and keeps its rule here: a request's body must have arrived within
 * HTTP_REQUEST_TIMEOUT_MS (408 otherwise, as Node did), except a streamed upload, which tells us so
 * (`watchUploadProgress`): it may take as long as it needs while bytes keep coming, and is cut off only after
 * HTTP_UPLOAD_IDLE_TIMEOUT_MS without one. The head is still bounded by Node's headersTimeout.
 */
export interface BodyTimes {
  requestMs: number;
  uploadIdleMs: number;
}

interface Watch {
  times: BodyTimes;
  deadline: ReturnType<typeof setTimeout> | null;
}

const watches = new WeakMap<IncomingMessage, Watch>();

const hasBody = (req: IncomingMessage) => req.headers['content-length'] !== undefined ? req.headers['content-length'] !== '0' : req.headers['transfer-encoding'] !== undefined;

/** The answer to a body that came too slowly: 408 `{detail}`, and the connection closed after it. */
function timedOut(req: IncomingMessage, res: ServerResponse, detail: string): void {
  if (res.headersSent) {
    req.socket.destroy();
    return;
  }
  const body = JSON.stringify(errorBody(408, detail));
  res.writeHead(408, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body), Connection: 'close' });
  res.end(body, () => req.socket.destroy());
}

/** Starts the whole-body deadline of a request (createHttpServer does it for every request that has a body). */
export function watchBody(req: IncomingMessage, res: ServerResponse, times: BodyTimes): void {
  if (!hasBody(req)) return;
  const watch: Watch = { times, deadline: null };
  watch.deadline = setTimeout(() => {
    watch.deadline = null;
    if (!req.complete && !res.writableEnded) timedOut(req, res, API_TEXTS.requestTimedOut);
  }, times.requestMs);
  watch.deadline.unref();
  watches.set(req, watch);
  res.once('close', () => {
    if (watch.deadline) clearTimeout(watch.deadline);
  });
}

/**
 * A streamed upload: the whole-body deadline no longer applies; instead `onStall` is called once when no byte has
 * arrived for the upload idle time while the body is being read (time the reader itself holds the body back, to
 * let storage catch up, is not counted). Progress is the socket's bytes read, so the body stream is left untouched.
 * Returns a function that stops watching. Without a watch (a server not made by createHttpServer) it does nothing.
 */
export function watchUploadProgress(req: IncomingMessage, onStall: (idleMs: number) => void): () => void {
  const watch = watches.get(req);
  if (!watch) return () => undefined;
  if (watch.deadline) clearTimeout(watch.deadline);
  watch.deadline = null;
  const idleMs = watch.times.uploadIdleMs;
  let bytes = req.socket.bytesRead;
  let lastProgress = Date.now();
  const timer = setInterval(() => {
    const now = Date.now();
    if (req.complete || req.destroyed) return stop();
    if (req.socket.bytesRead !== bytes || req.readableFlowing !== true) {
      bytes = req.socket.bytesRead;
      lastProgress = now;
      return;
    }
    if (now - lastProgress >= idleMs) {
      stop();
      onStall(idleMs);
    }
  }, Math.max(25, Math.min(1000, Math.floor(idleMs / 4))));
  timer.unref();
  function stop() {
    clearInterval(timer);
  }
  return stop;
}

/** How long a refused body is still read (and dropped) after the answer, before its connection is closed. */
export const LINGER_MS = 2000;

/**
 * After an early answer to a body still arriving (413, 415, 408): what the client still sends is read and dropped, so
 * its writes meet no reset that would discard the answer before it reads it; once the answer is out, the connection
 * closes after LINGER_MS unless the body has ended by then (a keep-alive connection then stays usable).
 */
export function lingerThenClose(req: IncomingMessage, res: ServerResponse, lingerMs = LINGER_MS): void {
  req.resume();
  res.once('finish', () => {
    if (req.complete) return;
    setTimeout(() => {
      if (!req.complete) req.socket.destroy();
    }, lingerMs).unref();
  });
}
