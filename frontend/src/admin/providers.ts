import simpleRestProvider from 'ra-data-simple-rest';
import { fetchUtils, HttpError, type AuthProvider } from 'react-admin';
import type { AdminPermissions } from '@telemed/contracts/admin';
import { sessionStore } from '../lib/session';
import { isStaleRead, send, writePositions } from '../lib/api';
import { call } from '../lib/client';
import { createCatchUp } from './catch-up';

/**
 * Whether the console's reads have caught up with the user's writes. Asked through a small read (the caller's
 * permissions) that carries X-Min-Position like any other and so waits on the server too.
 */
export const readSide = createCatchUp({
  probe: async (position) => !isStaleRead((await httpClient('/api/v1/admin/permissions')).headers, position),
});

/**
 * ra-data-simple-rest's fetchJson on the app's one transport (`send`: the bearer token, X-Min-Position after the
 * user's own writes, the token's renewal). A read the server answered before its read models reached that position
 * (X-Read-Model-Stale) puts the console in catch-up (catch-up.ts): marked as still updating, and fetched again once the
 * read side has caught up.
 */
export async function httpClient(url: string, options: fetchUtils.Options = {}): Promise<{ status: number; headers: Headers; body: string; json: unknown }> {
  const method = options.method ?? 'GET';
  const minPosition = method === 'GET' ? writePositions.get() : 0;
  const headers = new Headers(options.headers as HeadersInit | undefined);
  headers.set('Accept', 'application/json');
  const exchange = await send(url.replace(/^\/api\/v1/, ''), { method, body: options.body ?? undefined, headers, signal: options.signal ?? undefined });
  if (!exchange.ok) {
    const detail = (exchange.body as { detail?: unknown } | null)?.detail;
    throw new HttpError(typeof detail === 'string' ? detail : String(exchange.status), exchange.status, exchange.body);
  }
  if (minPosition > 0) {
    if (isStaleRead(exchange.headers, minPosition)) readSide.behind(minPosition);
    else readSide.reached(minPosition);
  }
  return { status: exchange.status, headers: exchange.headers, body: exchange.text, json: exchange.body };
}

export const dataProvider = simpleRestProvider('/api/v1/admin', httpClient);

let permissions: Promise<AdminPermissions> | null = null;
/** What the server says the caller may do (GET /admin/permissions), fetched once per session. */
export function loadPermissions(): Promise<AdminPermissions> {
  permissions ??= call('getAdminPermissions');
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
