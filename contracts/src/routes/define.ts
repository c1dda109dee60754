import type { ZodType, z } from 'zod';
import { ROUTE_PATHS, type RouteName } from './paths';

/** What the table says of a route beside its method and path: its schemas, its document and its answers. */
export interface RouteSchemas {
  summary: string;
  tags: readonly string[];
  params?: ZodType;
  query?: ZodType;
  /** A JSON body. */
  body?: ZodType;
  /**
   * For an upload: the multipart/form-data body's text fields (the handler reads the stream itself, files and fields,
   * and checks the fields with this schema).
   */
  multipart?: ZodType;
  /** An application/x-www-form-urlencoded body's fields (a provider's callback): the handler reads and checks them. */
  form?: ZodType;
  /** The body of the success status; none for an answer that is not JSON (a file, a PDF, a CSV). */
  response?: ZodType;
  /** The route may also answer a file instead of its JSON response (a download format the query asks for). */
  alsoFile?: true;
  /** The success status, 200 unless said. */
  successStatus?: number;
  /** The other statuses this route answers, for the document (401, 403 and 422 are added from its policy and schemas). */
  errors?: readonly number[];
}

export type RouteEntry = RouteSchemas & { readonly method: (typeof ROUTE_PATHS)[RouteName]['method']; readonly path: string };

type Defined<T extends Partial<Record<RouteName, RouteSchemas>>> = { [K in keyof T & RouteName]: T[K] & (typeof ROUTE_PATHS)[K] };

/** An area's routes: each named entry of ROUTE_PATHS with its schemas, method and path joined in. */
export function defineRoutes<const T extends Partial<Record<RouteName, RouteSchemas>>>(entries: T): Defined<T> {
  const joined: Partial<Record<RouteName, RouteEntry>> = {};
  for (const name of Object.keys(entries) as Array<keyof T & RouteName>) {
    // Widened first: comparing each entry's own literal type with RouteEntry is more than the checker will do.
    const schemas: RouteSchemas = entries[name]!;
    const path: (typeof ROUTE_PATHS)[RouteName] = ROUTE_PATHS[name];
    joined[name] = { ...schemas, ...path };
  }
  // Each entry was joined with its own path above; TypeScript cannot follow a key through the loop.
  return joined as Defined<T>;
}

type InputOf<S> = S extends ZodType ? z.input<S> : undefined;
type OutputOf<S> = S extends ZodType ? z.output<S> : undefined;

/** A route's types on the wire: what a caller sends (before the server's parsing) and what it gets back. */
export interface RouteTypes<E extends RouteEntry> {
  params: InputOf<E['params']>;
  query: InputOf<E['query']>;
  body: E['multipart'] extends ZodType ? FormData : InputOf<E['body']>;
  response: E['response'] extends ZodType ? z.output<E['response']> : unknown;
}

/** What a handler gets after the server's parsing. */
export interface ParsedRequest<E extends RouteEntry> {
  params: OutputOf<E['params']>;
  query: OutputOf<E['query']>;
  body: OutputOf<E['body']>;
}
