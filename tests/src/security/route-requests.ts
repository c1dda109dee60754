import { parse as parseQueryString } from 'node:querystring';
import fc from 'fast-check';
import type { ZodType } from 'zod';
import type { DeclaredRoute, Policy } from '@telemed/platform';
import { arbitraryFor, type Hint } from './zod-arbitrary';
import { deepJsonText, hostileLeaf, mutate, toJson, withPrototypeKey } from './hostile-values';

/** One generated call of a route: what is sent, and whether the route's own schemas accept it. */
export interface GeneratedRequest {
  kind: RequestKind;
  params: Record<string, string>;
  /** The query string without `?`. */
  query: string;
  /** JSON text of the body, or undefined for none. */
  body: string | undefined;
  caller: number;
}

export type RequestKind = 'valid' | 'near-valid' | 'prototype-key' | 'hostile';
export const REQUEST_KINDS: readonly RequestKind[] = ['valid', 'near-valid', 'prototype-key', 'hostile'];

/** Supplies fixture values for one route (hints see the location first: `body`, `query` or `params`). */
export type RouteHints = (route: DeclaredRoute) => Hint;

export const paramNames = (path: string): string[] => [...path.matchAll(/:(\w+)/g)].map((m) => m[1]!);

const objectOrEmpty = (value: unknown): Record<string, unknown> => (value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {});

/** A generated value as the text of a query value or path segment (objects as their JSON). */
const asText = (value: unknown): string => (typeof value === 'string' ? value : value === undefined ? '' : (toJson(value) ?? ''));

function toQueryString(value: unknown): string {
  const search = new URLSearchParams();
  for (const [key, v] of Object.entries(objectOrEmpty(value))) {
    if (v === undefined) continue;
    if (Array.isArray(v)) for (const item of v) search.append(key, asText(item));
    else search.append(key, asText(v));
  }
  return search.toString();
}

/** A path segment as a client would send it; unpaired surrogates become malformed percent-encoding. */
export function encodeSegment(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return '%ED%A0%80' + encodeURIComponent(value.replace(/[\ud800-\udfff]/g, ''));
  }
}

/**
 * Builds the arbitrary of requests for a route. Throws (UnsupportedSchemaError) when one of its schemas holds a
 * zod type the generator does not know: that is what the coverage test reports.
 */
export function requestArbitrary(route: DeclaredRoute, hints: RouteHints, callers: number): Record<RequestKind, fc.Arbitrary<GeneratedRequest>> {
  const hint = hints(route);
  const part = (where: 'body' | 'query' | 'params', schema: ZodType | undefined) =>
    schema ? arbitraryFor(schema, (path, generated) => hint([where, ...path], generated)) : fc.constant(undefined);
  const params = part('params', route.params);
  const query = part('query', route.query);
  const body = part('body', route.body);
  const caller = fc.nat(Math.max(0, callers - 1));
  const names = paramNames(route.path);

  const build = (kind: RequestKind, p: unknown, q: unknown, b: unknown | { rawJson: string }, who: number): GeneratedRequest => ({
    kind,
    params: Object.fromEntries(names.map((name) => [name, asText(objectOrEmpty(p)[name])])),
    query: toQueryString(q),
    body: b !== null && typeof b === 'object' && 'rawJson' in b ? (b as { rawJson: string }).rawJson : toJson(b),
    caller: who,
  });

  // Near-valid and hostile requests change one part and keep the others valid, so the change is what is tested.
  const parts = [
    ...(route.params ? (['params'] as const) : []),
    ...(route.query ? (['query'] as const) : []),
    ...(route.body || route.method !== 'get' ? (['body'] as const) : []),
  ];
  // Prototype keys go where keys are read: every query, and the body of any method that has one.
  const keyedParts = ['query', ...(route.method !== 'get' ? (['body'] as const) : [])] as const;
  const changeOne = (kind: RequestKind, change: (valid: fc.Arbitrary<unknown>) => fc.Arbitrary<unknown>, among: ReadonlyArray<'params' | 'query' | 'body'> = parts) =>
    among.length === 0
      ? fc.tuple(params, query, hostileLeaf, caller).map(([p, q, b, who]) => build(kind, p, q, b, who))
      : fc.constantFrom(...among).chain((which) =>
          fc
            .tuple(
              which === 'params' ? change(params) : params,
              which === 'query' ? change(query) : query,
              which === 'body' ? change(body) : body,
              caller,
            )
            .map(([p, q, b, who]) => build(kind, p, q, b, who)),
        );

  const hostileBody = fc.oneof(
    hostileLeaf,
    fc.constantFrom(1_000, 100_000).map((depth) => ({ rawJson: deepJsonText(depth, '{"a":', '}').replace(/\}+$/, (m) => `1${m}`) })),
    fc.constantFrom('{', '{"a":1,}', 'nul', '"\\ud800"', '[1,2', '{"__proto__":{"polluted":true}}', '{"constructor":{"prototype":{"polluted":true}}}').map((rawJson) => ({ rawJson })),
  );
  return {
    valid: fc.tuple(params, query, body, caller).map(([p, q, b, who]) => build('valid', p, q, b, who)),
    'near-valid': changeOne('near-valid', mutate),
    'prototype-key': changeOne('prototype-key', withPrototypeKey, keyedParts),
    hostile: fc.tuple(params, query, hostileBody, caller).map(([p, q, b, who]) => build('hostile', p, q, b, who)),
  };
}

/** Does the route's own schema accept what was sent, in the form the server parses it? */
export function schemasAccept(route: DeclaredRoute, request: GeneratedRequest): boolean {
  const ok = (schema: ZodType | undefined, value: unknown) => !schema || schema.safeParse(value).success;
  let body: unknown;
  try {
    body = request.body === undefined ? undefined : (JSON.parse(request.body) as unknown);
  } catch {
    return false;
  }
  return ok(route.params, request.params) && ok(route.query, { ...parseQueryString(request.query) }) && ok(route.body, body);
}

export type CallerRole = 'patient' | 'doctor' | 'platformAdmin' | 'institutionAdmin' | 'anonymous';

/** Callers whom the policy lets through (the property is about input, not access). */
export function callersFor(policy: Policy): CallerRole[] {
  if (policy.kind === 'public') return ['anonymous', 'patient'];
  if (policy.institution) return ['platformAdmin', 'institutionAdmin'];
  if (!policy.roles) return ['patient', 'doctor', 'platformAdmin', 'institutionAdmin'];
  return policy.roles.map((role) => (role === 'admin' ? 'platformAdmin' : role));
}
