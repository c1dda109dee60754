import type { ApiRoutes } from '@telemed/contracts';
import { ROUTE_PATHS, fillPath, type RouteName } from '@telemed/contracts/route-paths';
import { request } from './api';

/** A field of a call: absent when the route has none, optional when it may be left out, else required. */
type Field<K extends string, T> = [T] extends [undefined]
  ? { [P in K]?: undefined }
  : undefined extends T
    ? { [P in K]?: T }
    : Record<never, never> extends T
      ? { [P in K]?: T }
      : { [P in K]: T };

/** What a call of a route takes: its path parameters, query and body, each only when the route has them. */
export type CallInput<N extends RouteName> = Field<'params', ApiRoutes[N]['params']> &
  Field<'query', ApiRoutes[N]['query']> &
  Field<'body', ApiRoutes[N]['body']> & { signal?: AbortSignal };

type CallArgs<N extends RouteName> = Partial<CallInput<N>> extends CallInput<N> ? [input?: CallInput<N>] : [input: CallInput<N>];

/** A query's fields as URL parameters: arrays repeat, objects go as JSON (the console's filter), undefined is left out. */
export function queryString(query: object | undefined): string {
  if (!query) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const item of value) search.append(key, String(item));
    else search.set(key, typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/**
 * Calls a route of the contracts' table by name, typed from it: `call('requestAppointment', { body })`. The types
 * come from the table (no zod in the bundle); the transport is the app's one (`lib/api.ts`).
 */
export async function call<N extends RouteName>(name: N, ...[input]: CallArgs<N>): Promise<ApiRoutes[N]['response']> {
  const route = ROUTE_PATHS[name];
  const params: Record<string, string | number> | undefined = input?.params ?? undefined;
  const url = fillPath(route.path, params) + queryString(input?.query ?? undefined);
  const body = await request(url, { method: route.method.toUpperCase(), body: input?.body, signal: input?.signal });
  // The server answers each route with its response schema (its handler cannot compile otherwise, and the route
  // property tests check it); this is the one place the wire's JSON takes that type.
  return body as ApiRoutes[N]['response'];
}
