import simpleRestProvider from 'ra-data-simple-rest';
import { fetchUtils, HttpError, type AuthProvider } from 'react-admin';
import { API_TEXTS } from '@telemed/contracts/texts';
import type { AdminPermissions } from '@telemed/contracts/admin';
import { sessionStore } from '../lib/session';
import { renewSession, writePositions } from '../lib/api';
import { createCatchUp } from './catch-up';

/**
 * Whether the console's reads have caught up with the user's writes. Asked through a small read (the caller's
 * permissions) that carries X-Min-Position like any other and so waits on the server too.
 */
export const readSide = createCatchUp({
  probe: async (position) => !isStale((await httpClient('/api/v1/admin/permissions')).headers, position),
});

/**
 * Whether the server answered before its read models reached `minPosition`. The position it reports wins over the
 * mark: a revalidated answer (304) keeps the headers of the one cached before, mark included.
 */
function isStale(headers: Headers, minPosition: number): boolean {
  if (headers.get('X-Read-Model-Stale') !== 'true') return false;
  return !(Number(headers.get('X-Read-Model-Position')) >= minPosition);
}

/**
 * ra-data-simple-rest's fetchJson with the app's session: the bearer token, X-Min-Position after the user's own
 * writes (read-your-writes, shared with the rest of the app), and one token renewal on an expired session. A read the
 * server answered before its read models reached that position (X-Read-Model-Stale) puts the console in catch-up
 * (catch-up.ts): marked as still updating, and fetched again once the read side has caught up.
 */
export async function httpClient(url: string, options: fetchUtils.Options = {}, retried = false): Promise<{ status: number; headers: Headers; body: string; json: unknown }> {
  const headers = new Headers(options.headers as HeadersInit | undefined);
  const session = sessionStore.get();
  if (session) headers.set('Authorization', `Bearer ${session.token}`);
  const method = options.method ?? 'GET';
  const minPosition = method === 'GET' ? writePositions.get() : 0;
  if (minPosition > 0) headers.set('X-Min-Position', String(minPosition));
  try {
    const result = await fetchUtils.fetchJson(url, { ...options, headers });
    writePositions.note(Number(result.headers.get('X-Event-Position')));
    if (minPosition > 0) {
      if (isStale(result.headers, minPosition)) readSide.behind(minPosition);
      else readSide.reached(minPosition);
    }
    return result;
  } catch (error) {
    const expired = error instanceof HttpError && error.status === 401 && (error.body as { detail?: unknown } | null)?.detail === API_TEXTS.sessionExpired;
    if (expired && !retried && (await renewSession())) return httpClient(url, options, true);
    throw error;
  }
}

export const dataProvider = simpleRestProvider('/api/v1/admin', httpClient);

let permissions: Promise<AdminPermissions> | null = null;
/** What the server says the caller may do (GET /admin/permissions), fetched once per session. */
export function loadPermissions(): Promise<AdminPermissions> {
  permissions ??= httpClient('/api/v1/admin/permissions').then((r) => r.json as AdminPermissions);
  permissions.catch(() => (permissions = null));
  return permissions;
}

/** The app's own session: signing in happens on the app's /login; canAccess follows the server's permissions. */
export const authProvider: AuthProvider = {
  login: () => Promise.resolve(),
  logout: () => {
    permissions = null;
    sessionStore.clear();
    return Promise.resolve('/login');
  },
  checkAuth: () => (sessionStore.get() ? Promise.resolve() : Promise.reject({ redirectTo: '/login' })),
  checkError: (error: { status?: number }) => (error?.status === 401 ? Promise.reject() : Promise.resolve()),
  getIdentity: () => {
    const session = sessionStore.get();
    return session ? Promise.resolve({ id: session.user.user_id, fullName: session.user.name }) : Promise.reject(new Error('Not signed in'));
  },
  canAccess: async ({ resource, action }) => {
    const granted = (await loadPermissions()).resources as Record<string, string[] | undefined>;
    return Boolean(granted[resource]?.includes(action));
  },
};
