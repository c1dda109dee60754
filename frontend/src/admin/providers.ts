import simpleRestProvider from 'ra-data-simple-rest';
import { fetchUtils, HttpError, type AuthProvider } from 'react-admin';
import type { AdminPermissions } from '@telemed/contracts/admin';
import { sessionStore } from '../lib/session';
import { ApiError, isStaleRead, send, writePositions } from '../lib/api';
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
    const message = typeof detail === 'string' ? detail : String(exchange.status);
    remember(message, ApiError.of(exchange.status, exchange.body, message));
    throw new HttpError(message, exchange.status, exchange.body);
  }
  if (minPosition > 0) {
    if (isStaleRead(exchange.headers, minPosition)) readSide.behind(minPosition);
    else readSide.reached(minPosition);
  }
  return { status: exchange.status, headers: exchange.headers, body: exchange.text, json: exchange.body };
}

/**
 * The server's last refusals, by the text react-admin shows for them (its notifications say an error's message, the
 * server's English detail): the console's i18nProvider says each in the chosen language by its `code` instead.
 */
const refusals = new Map<string, ApiError>();
const REFUSALS_KEPT = 50;

function remember(message: string, refusal: ApiError) {
  refusals.delete(message);
  refusals.set(message, refusal);
  if (refusals.size > REFUSALS_KEPT) refusals.delete(refusals.keys().next().value!);
}

/** The refusal a notification's text is the detail of, if the server said it lately. */
export const refusalShownAs = (text: string): ApiError | undefined => refusals.get(text);

/** A dataProvider's failure (react-admin's HttpError, carrying the server's body) as the ApiError useErrorText explains. */
export function asApiError(error: unknown): unknown {
  return error instanceof HttpError ? ApiError.of(error.status, error.body, error.message) : error;
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
    const permissions = await loadPermissions();
    const granted = (permissions.resources as Record<string, string[] | undefined>)[resource];
    return Boolean(granted?.includes(action));
  },
};
