import type { ApiRoutes } from '@telemed/contracts';
import { ROUTE_PATHS } from '@telemed/contracts/route-paths';
import { API_TEXTS } from '@telemed/contracts/texts';
import { sessionStore } from './session';

/** An API failure with the server's detail (the seeds' English) and its code and values (what screens translate). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly code = '',
    readonly values: readonly string[] = [],
  ) {
    super(detail);
    this.name = 'ApiError';
  }

  /** The failure as the server answered it: `{"detail", "code", "values"}`. */
  static of(status: number, body: unknown, fallback = ''): ApiError {
    const { code, values } = (body ?? {}) as { code?: unknown; values?: unknown };
    const strings = Array.isArray(values) ? values.filter((v): v is string => typeof v === 'string') : [];
    return new ApiError(status, detailOf(body, fallback), typeof code === 'string' ? code : '', strings);
  }
}

let lastWritePosition = 0;
let onSessionExpired: (() => void) | null = null;
const writeListeners = new Set<() => void>();

/**
 * Called after every successful write of the user's own: the app refetches what is on screen (with X-Min-Position),
 * so every count and list their action changed is current at once.
 */
export function onOwnWrite(listener: () => void): () => void {
  writeListeners.add(listener);
  return () => writeListeners.delete(listener);
}

/** Called once when the server says the session is over (401). */
export function setSessionExpiredHandler(handler: () => void) {
  onSessionExpired = handler;
}

function detailOf(body: unknown, fallback: string): string {
  const detail = (body as { detail?: unknown } | null)?.detail;
  if (typeof detail === 'string') return detail;
  if (Array.isArray(detail) && detail[0] && typeof (detail[0] as { msg?: unknown }).msg === 'string') return (detail[0] as { msg: string }).msg;
  return fallback;
}

/** One exchange with /api/v1 as the server answered it, after the session's renewal when its token had expired. */
export interface Exchange {
  status: number;
  ok: boolean;
  headers: Headers;
  /** The parsed JSON body (null when empty; the text itself when it is not JSON). */
  body: unknown;
  /** The body as it came (a CSV download, say). */
  text: string;
}

/**
 * The one transport every client of the API goes through (the app's `call` and `api`, the console's dataProvider):
 * the session's bearer token, read from the session store at each call (so a renewed token is used at once), X-Min-
 * Position on reads after the user's own writes (so a user never sees their change missing), the write position the
 * server reports, and one renewal of an expired access token with the refresh token.
 */
export async function send(path: string, init: { method?: string; body?: unknown; signal?: AbortSignal; headers?: HeadersInit } = {}, retried = false): Promise<Exchange> {
  const session = sessionStore.get();
  const method = (init.method ?? 'GET').toUpperCase();
  const headers = new Headers(init.headers);
  if (session) headers.set('Authorization', `Bearer ${session.token}`);
  // A form (an upload) goes as multipart with the browser's own boundary; a string as it is; anything else as JSON.
  const form = typeof FormData !== 'undefined' && init.body instanceof FormData ? init.body : null;
  const raw = typeof init.body === 'string' ? init.body : null;
  if (init.body !== undefined && !form && !headers.has('Content-Type')) headers.set('Content-Type', 'application/json');
  if (method === 'GET' && lastWritePosition > 0) headers.set('X-Min-Position', String(lastWritePosition));
  const response = await fetch(`/api/v1${path}`, {
    method,
    headers,
    body: form ?? raw ?? (init.body === undefined ? undefined : JSON.stringify(init.body)),
    signal: init.signal,
    credentials: 'same-origin',
  });
  const position = Number(response.headers.get('X-Event-Position'));
  if (position > lastWritePosition) lastWritePosition = position;
  const text = await response.text();
  const body: unknown = text ? parseJson(text) : null;
  // An expired access token is renewed once with the refresh token, so a session lasts a long clinic day.
  if (response.status === 401 && session?.refreshToken && !retried && detailOf(body, '') === API_TEXTS.sessionExpired && (await refresh(session.refreshToken))) {
    return send(path, init, true);
  }
  if (response.status === 401 && session && onSessionExpired && !sessionStore.closedByUser) onSessionExpired();
  if (response.ok && method !== 'GET') writeListeners.forEach((listener) => listener());
  return { status: response.status, ok: response.ok, headers: response.headers, body, text };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Whether the server answered before its read models reached the user's last write (its wait ran out). */
export function isStaleRead(headers: Headers, minPosition = lastWritePosition): boolean {
  if (headers.get('X-Read-Model-Stale') !== 'true') return false;
  // The position it reports wins over the mark: a revalidated answer (304) keeps the headers of the one cached before.
  return !(Number(headers.get('X-Read-Model-Position')) >= minPosition);
}

/**
 * A request through the transport that throws an ApiError with the server's detail unless it succeeded. A read the
 * server answered stale (its 2 s wait ran out on a loaded server) is asked again, each time waiting on the server
 * again, rather than showing the user their change missing.
 */
export async function request(path: string, init: { method?: string; body?: unknown; signal?: AbortSignal } = {}): Promise<unknown> {
  for (let tries = 0; ; tries += 1) {
    const exchange = await send(path, init);
    if (!exchange.ok) throw ApiError.of(exchange.status, exchange.body, String(exchange.status));
    const stale = (init.method ?? 'GET').toUpperCase() === 'GET' && exchange.headers.get('X-Read-Model-Stale') === 'true';
    if (!stale || tries >= STALE_READ_RETRIES) return exchange.body;
  }
}

/** How often a read that came back stale (behind the user's own write) is asked again: each waits up to 2 s on the server. */
export const STALE_READ_RETRIES = 5;

/** For clients beside `api` (the react-admin console's httpClient): the read-your-writes position they share. */
export const writePositions = {
  get: () => lastWritePosition,
  note(position: number) {
    if (position > lastWritePosition) lastWritePosition = position;
  },
};

/** Renews the access token with the refresh token (shared with `api`); false when there is none or it failed. */
export function renewSession(): Promise<boolean> {
  const session = sessionStore.get();
  return session?.refreshToken ? refresh(session.refreshToken) : Promise.resolve(false);
}

let refreshing: Promise<boolean> | null = null;

/** Exchanges the refresh token (rotating it); concurrent callers share one exchange. */
function refresh(refreshToken: string): Promise<boolean> {
  // A fetch of its own, not `send`: that would answer a refusal here by renewing again (waiting on itself).
  refreshing ??= fetch(`/api/v1${ROUTE_PATHS.refreshTokens.path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ refresh_token: refreshToken }),
  })
    .then(async (response) => {
      if (!response.ok) return false;
      const tokens = (await response.json()) as ApiRoutes['refreshTokens']['response'];
      const session = sessionStore.get();
      if (!session) return false;
      sessionStore.set({ ...session, token: tokens.access_token, refreshToken: tokens.refresh_token });
      return true;
    })
    .catch(() => false)
    .finally(() => {
      refreshing = null;
    });
  return refreshing;
}
