import { API_TEXTS } from '@telemed/contracts/texts';
import { sessionStore } from './session';

/** An API failure with the server's detail. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(detail);
    this.name = 'ApiError';
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

/**
 * Calls /api/v1 with the session's bearer token, read from the session store at each call (so a renewed token is
 * used at once, whoever holds a reference to this function). Reads send X-Min-Position after the user's own writes, so a user
 * never sees their change missing.
 */
export async function api<T>(path: string, init: { method?: string; body?: unknown; signal?: AbortSignal } = {}, retried = false, staleTries = 0): Promise<T> {
  const session = sessionStore.get();
  const method = init.method ?? 'GET';
  const headers: Record<string, string> = {};
  if (session) headers.Authorization = `Bearer ${session.token}`;
  // A form (an upload) goes as multipart with the browser's own boundary; anything else as JSON.
  const form = typeof FormData !== 'undefined' && init.body instanceof FormData ? init.body : null;
  if (init.body !== undefined && !form) headers['Content-Type'] = 'application/json';
  if (method === 'GET' && lastWritePosition > 0) headers['X-Min-Position'] = String(lastWritePosition);
  const response = await fetch(`/api/v1${path}`, {
    method,
    headers,
    body: form ?? (init.body === undefined ? undefined : JSON.stringify(init.body)),
    signal: init.signal,
    credentials: 'same-origin',
  });
  const position = Number(response.headers.get('X-Event-Position'));
  if (position > lastWritePosition) lastWritePosition = position;
  const text = await response.text();
  const body: unknown = text ? JSON.parse(text) : null;
  if (!response.ok) {
    // An expired access token is renewed once with the refresh token, so a session lasts a long clinic day.
    if (response.status === 401 && session?.refreshToken && !retried && detailOf(body, '') === API_TEXTS.sessionExpired && (await refresh(session.refreshToken))) {
      return api<T>(path, init, true);
    }
    if (response.status === 401 && session && onSessionExpired && !sessionStore.closedByUser) onSessionExpired();
    throw new ApiError(response.status, detailOf(body, response.statusText));
  }
  if (method !== 'GET') writeListeners.forEach((listener) => listener());
  // The read models had not reached the user's own last write when the server's wait (2 s) ran out (a loaded server):
  // asked again, each time waiting on the server again, rather than showing the user their change missing.
  if (method === 'GET' && response.headers.get('X-Read-Model-Stale') === 'true' && staleTries < STALE_READ_RETRIES) return api<T>(path, init, retried, staleTries + 1);
  return body as T;
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
  refreshing ??= fetch('/api/v1/auth/refresh', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ refresh_token: refreshToken }),
  })
    .then(async (response) => {
      if (!response.ok) return false;
      const tokens = (await response.json()) as { access_token: string; refresh_token: string };
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
