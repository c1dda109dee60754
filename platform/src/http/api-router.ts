import express, { type Request, type Response, type Router } from 'express';
import type { OpenAPIRegistry, RouteConfig } from '@asteasolutions/zod-to-openapi';
import type { ZodType, z } from 'zod';
import {
  API_TEXTS,
  INSTITUTION_TEXTS,
  errorResponseSchema,
  jsonShapeProblem,
  membershipAllows,
  ROUTES,
  type ParsedRequest,
  type RouteEntry,
  type RouteName,
  type AccountType,
  type InstitutionAbility,
  type InstitutionMembership,
} from '@telemed/contracts';
import { HttpError, RequestValidationError } from './errors';
import { TokenError, type AccessClaims, type TokenService } from '../auth/tokens';

const PRIVATE_NO_STORE = 'private, no-store';

/** Who may call a route. Ownership is checked by the handler (or the decider) on top of this. */
export type PublicPolicy = { kind: 'public' };
export type AuthenticatedPolicy = {
  kind: 'authenticated';
  roles?: readonly AccountType[];
  /** The route acts on the institution named by this path parameter; the caller needs this ability there. */
  institution?: { param: string; ability: InstitutionAbility };
};
export type Policy = PublicPolicy | AuthenticatedPolicy;
export const policies = {
  public: { kind: 'public' } as PublicPolicy,
  anyUser: { kind: 'authenticated' } as AuthenticatedPolicy,
  roles: (...roles: AccountType[]): AuthenticatedPolicy => ({ kind: 'authenticated', roles }),
  /** Platform admins, or members of the institution whose role grants the ability. */
  institution: (ability: InstitutionAbility, param = 'id'): AuthenticatedPolicy => ({ kind: 'authenticated', institution: { param, ability } }),
};

/** The caller's standing in an institution: null when it does not exist (or was disbanded). */
export type InstitutionResolver = (institutionId: string, userId: string) => Promise<{ membership: InstitutionMembership | null } | null>;

/** Public routes get no caller; every other route gets the verified claims. */
type CallerOf<P extends Policy> = P extends PublicPolicy ? null : AccessClaims;

/** Says why a verified token may no longer be used (ended session, deactivated account), or null. */
export type TokenCheck = (claims: AccessClaims) => Promise<string | null>;

/**
 * A body already serialized as JSON, sent as it is: a response rendered once is not serialized (nor, with its ETag,
 * hashed) again.
 */
export class JsonText<T = unknown> {
  /** The shape the bytes hold, for the type checker only: a route's pre-rendered answer is typed as its response. */
  declare readonly shape?: T;

  constructor(
    readonly bytes: Buffer,
    readonly etag?: string,
  ) {}
}

/** A body that is not JSON (a CSV download), sent as it is with its content type. */
export class RawBody {
  constructor(
    readonly bytes: Buffer,
    readonly contentType: string,
  ) {}
}

/** A body sent as a stream (a file, a generated PDF) with its type: never buffered whole. */
export class StreamedBody {
  constructor(
    readonly stream: NodeJS.ReadableStream,
    readonly contentType: string,
  ) {}
}

export interface HandlerResult<T> {
  status?: number;
  body: T;
  headers?: Record<string, string>;
}

export interface RouteContext<B, Q, P, A = AccessClaims> {
  body: B;
  query: Q;
  params: P;
  auth: A;
  req: Request;
  res: Response;
}

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** A route as declared: enough to call it (and to generate calls to it) without reading its module. */
export interface DeclaredRoute {
  /** Its name in the contracts' route table. */
  name?: RouteName;
  method: Method;
  path: string;
  policy: Policy;
  body?: ZodType;
  /** The text fields of a multipart/form-data body (its files stream to the handler); such a route has no JSON body. */
  multipart?: ZodType;
  /** The fields of an application/x-www-form-urlencoded body (a provider's callback), read by the handler. */
  form?: ZodType;
  query?: ZodType;
  params?: ZodType;
  response?: ZodType;
  successStatus: number;
}
type Schema = ZodType;
type Out<S> = S extends ZodType ? z.output<S> : undefined;

interface RouteSpec<
  BS extends Schema | undefined,
  QS extends Schema | undefined,
  PS extends Schema | undefined,
  R,
  Pol extends Policy = Policy,
> {
  method: Method;
  /** Express path, relative to the router's mount point (`/appointments/:id/approve`). */
  path: string;
  summary: string;
  tags: string[];
  policy: Pol;
  body?: BS;
  /**
   * For an upload: the multipart/form-data body's text fields, for the document and the route tests (the handler
   * reads the stream itself, files and fields, and checks the fields with this schema).
   */
  multipart?: ZodType;
  /** An application/x-www-form-urlencoded body's fields (a provider's callback): read and checked by the handler. */
  form?: ZodType;
  query?: QS;
  params?: PS;
  /** Response schema of the success status (200 unless `successStatus`). */
  response?: ZodType;
  successStatus?: number;
  /** Other statuses this route answers, for the document. */
  errors?: number[];
  handler(ctx: RouteContext<Out<BS>, Out<QS>, Out<PS>, CallerOf<Pol>>): Promise<HandlerResult<R>>;
}

/** What a handler of a table route may answer: its response (as it is, or pre-rendered), or a file when it has none. */
type ResponseBodyOf<E extends RouteEntry> = E['response'] extends ZodType
  ? z.output<E['response']> | JsonText<z.output<E['response']>> | (E['alsoFile'] extends true ? RawBody | StreamedBody : never)
  : RawBody | StreamedBody;

/** How the server implements a route of the contracts' table: who may call it, and what it does. */
export interface RouteImplementation<E extends RouteEntry, Pol extends Policy> {
  policy: Pol;
  handler(ctx: RouteContext<ParsedRequest<E>['body'], ParsedRequest<E>['query'], ParsedRequest<E>['params'], CallerOf<Pol>>): Promise<HandlerResult<ResponseBodyOf<E>>>;
}

const errorDescriptions: Record<number, string> = {
  400: 'Malformed request',
  401: 'Missing, invalid or expired token',
  403: 'Not allowed for this role',
  404: 'Not found (or not yours)',
  409: 'Conflicts with the current state',
  410: 'The person this would record data about was erased: their account is closed',
  413: 'Body too large',
  415: 'Unsupported media type',
  422: 'Validation failed',
  429: 'Too many requests',
  503: 'A service this call needs is unavailable',
};

/** A request with a non-empty body (an empty POST from a browser still carries Content-Length: 0). */
function hasContent(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && Number(length) > 0);
}

function isEmptyObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;
}

export function bearerToken(req: Request): string | null {
  const header = req.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match ? match[1]! : null;
}

/**
 * Declares routes once: validation, the access policy and the OpenAPI description come from the same spec.
 */
export class ApiRouter {
  readonly router: Router = express.Router();

  constructor(
    private readonly deps: {
      tokens: TokenService;
      registry: OpenAPIRegistry;
      basePath: string;
      checkToken?: TokenCheck;
      resolveInstitution?: InstitutionResolver;
    },
  ) {}

  /** Every route of this router, with its policy and schemas: what the access-control matrix and property tests walk. */
  readonly routes: DeclaredRoute[] = [];

  /** Registers the handler of a route of the contracts' table: its answer must fit the route's response schema. */
  implement<N extends RouteName, Pol extends Policy>(name: N, implementation: RouteImplementation<(typeof ROUTES)[N], Pol>): void {
    const entry: RouteEntry = ROUTES[name];
    // The handler was checked against this very entry's types above; `route` cannot relate a generic name's entry to them.
    this.register({ ...entry, tags: [...entry.tags], errors: entry.errors ? [...entry.errors] : undefined, ...implementation } as RouteSpec<Schema | undefined, Schema | undefined, Schema | undefined, unknown, Pol>);
    this.routes[this.routes.length - 1]!.name = name;
  }

  private register<BS extends Schema | undefined, QS extends Schema | undefined, PS extends Schema | undefined, R, Pol extends Policy>(
    spec: RouteSpec<BS, QS, PS, R, Pol>,
  ): void {
    this.document(spec as unknown as RouteSpec<Schema | undefined, Schema | undefined, Schema | undefined, unknown>);
    this.routes.push({
      method: spec.method,
      path: spec.path,
      policy: spec.policy,
      body: spec.body,
      multipart: spec.multipart,
      form: spec.form,
      query: spec.query,
      params: spec.params,
      response: spec.response,
      successStatus: spec.successStatus ?? 200,
    });
    this.router[spec.method](spec.path, async (req, res) => {
      const auth = await this.authorize(spec.policy, req);
      if (auth && spec.policy.kind === 'authenticated' && spec.policy.institution) {
        await this.authorizeInstitution(spec.policy.institution, auth, String(req.params[spec.policy.institution.param] ?? ''));
      }
      if (spec.body && hasContent(req) && !req.is(['application/json', 'application/*+json'])) {
        throw new HttpError(415, API_TEXTS.unsupportedMediaType);
      }
      // A route that takes no body refuses one (other than `{}`), rather than ignoring what the caller meant to send.
      if (!spec.body && !spec.multipart && !spec.form && hasContent(req) && !isEmptyObject(req.body)) {
        throw new RequestValidationError([{ loc: ['body'], msg: API_TEXTS.noBodyTaken, type: 'no_body' }]);
      }
      // An answer to a signed-in caller holds their data or other people's (notes, chat, names), and the answer to a
      // command may be a sign-in's tokens (RFC 6749 §5.1): no browser or proxy keeps either (a shared clinic computer
      // after its user signed out), unless the route or a middleware said otherwise.
      const storedNowhere = (auth !== null || (req.method !== 'GET' && req.method !== 'HEAD')) && !res.get('Cache-Control');
      if (storedNowhere) res.set('Cache-Control', PRIVATE_NO_STORE);
      const params = parse('path', spec.params, req.params);
      const query = parse('query', spec.query, req.query);
      const body = parse('body', spec.body, req.body);
      const result = await spec.handler({ body, query, params, auth, req, res } as RouteContext<Out<BS>, Out<QS>, Out<PS>, CallerOf<Pol>>);
      if (result.headers) res.set(result.headers);
      res.status(result.status ?? spec.successStatus ?? 200);
      if (result.body instanceof StreamedBody) {
        const { stream } = result.body;
        res.set('Content-Type', result.body.contentType);
        stream.on('error', () => res.destroy());
        stream.pipe(res);
        return;
      }
      if (result.body instanceof JsonText) {
        res.set('Content-Type', 'application/json; charset=utf-8');
        if (result.body.etag) {
          res.set('ETag', result.body.etag);
          // An answer made to be revalidated by its ETag (a doctor's open slots: nobody's personal data) may be kept.
          if (storedNowhere && res.get('Cache-Control') === PRIVATE_NO_STORE) res.set('Cache-Control', 'private, no-cache');
        }
        res.send(result.body.bytes);
      } else if (result.body instanceof RawBody) {
        res.set('Content-Type', result.body.contentType);
        res.send(result.body.bytes);
      } else res.json(result.body);
    });
  }

  private async authorize(policy: Policy, req: Request): Promise<AccessClaims | null> {
    if (policy.kind === 'public') return null;
    const token = bearerToken(req);
    if (!token) throw new HttpError(401, API_TEXTS.authRequired, { 'WWW-Authenticate': 'Bearer' });
    let claims: AccessClaims;
    try {
      claims = await this.deps.tokens.verify(token);
    } catch (error) {
      const expired = error instanceof TokenError && error.reason === 'expired';
      throw new HttpError(401, expired ? API_TEXTS.sessionExpired : API_TEXTS.invalidToken, {
        'WWW-Authenticate': `Bearer error="invalid_token"`,
      });
    }
    const refused = await this.deps.checkToken?.(claims);
    if (refused) throw new HttpError(401, refused, { 'WWW-Authenticate': `Bearer error="invalid_token"` });
    if (policy.roles && !policy.roles.includes(claims.account_type)) throw new HttpError(403, API_TEXTS.forbiddenRole);
    return claims;
  }

  /** Someone with no standing in the institution is told it does not exist (a 403 would confirm it does). */
  private async authorizeInstitution(rule: { ability: InstitutionAbility }, auth: AccessClaims, institutionId: string): Promise<void> {
    if (!this.deps.resolveInstitution) throw new Error('Institution policies need an institution resolver');
    const found = institutionId ? await this.deps.resolveInstitution(institutionId, auth.user_id) : null;
    if (!found) throw new HttpError(404, INSTITUTION_TEXTS.institutionNotFound);
    if (auth.account_type === 'admin') return;
    if (!found.membership) throw new HttpError(404, INSTITUTION_TEXTS.institutionNotFound);
    if (!membershipAllows(found.membership, rule.ability)) throw new HttpError(403, API_TEXTS.forbiddenRole);
  }

  private document(spec: RouteSpec<Schema | undefined, Schema | undefined, Schema | undefined, unknown>): void {
    const errorResponse = { description: '', content: { 'application/json': { schema: errorResponseSchema } } };
    const statuses = new Set(spec.errors ?? []);
    if (spec.policy.kind !== 'public') statuses.add(401);
    if (spec.policy.kind === 'authenticated' && spec.policy.roles) statuses.add(403);
    if (spec.policy.kind === 'authenticated' && spec.policy.institution) statuses.add(403).add(404);
    if (spec.body || spec.query || spec.params) statuses.add(422);
    const responses: RouteConfig['responses'] = {
      [spec.successStatus ?? 200]: {
        description: 'Success',
        ...(spec.response ? { content: { 'application/json': { schema: spec.response } } } : {}),
      },
    };
    for (const status of statuses) responses[status] = { ...errorResponse, description: errorDescriptions[status] ?? 'Error' };
    this.deps.registry.registerPath({
      method: spec.method,
      path: this.deps.basePath + spec.path.replace(/:(\w+)/g, '{$1}'),
      summary: spec.summary,
      tags: spec.tags,
      security: spec.policy.kind === 'public' ? [] : [{ bearerAuth: [] }],
      request: {
        // zod-to-openapi wants object schemas here; our params and query schemas are always z.object(...)
        ...(spec.params ? { params: spec.params as never } : {}),
        ...(spec.query ? { query: spec.query as never } : {}),
        ...(spec.body ? { body: { content: { 'application/json': { schema: spec.body } } } } : {}),
        ...(spec.multipart ? { body: { content: { 'multipart/form-data': { schema: spec.multipart } } } } : {}),
        ...(spec.form ? { body: { content: { 'application/x-www-form-urlencoded': { schema: spec.form } } } } : {}),
      },
      responses,
    });
  }
}

function parse<S extends Schema | undefined>(where: 'body' | 'query' | 'path', schema: S, value: unknown): Out<S> {
  refuseHostileShape(where, value);
  if (!schema) return undefined as Out<S>;
  const result = schema.safeParse(value ?? (where === 'body' ? undefined : {}));
  if (!result.success) throw RequestValidationError.fromZod(where, result.error);
  return result.data as Out<S>;
}

/**
 * A prototype key (`__proto__`, `constructor`, `prototype`) anywhere in a body or query is refused, not dropped
 * silently by a schema that happens to skip it; so is nesting far deeper than any request the API defines.
 */
function refuseHostileShape(where: 'body' | 'query' | 'path', value: unknown): void {
  const problem = jsonShapeProblem(value);
  if (!problem) return;
  throw new RequestValidationError([
    problem.kind === 'prototype_key'
      ? { loc: [where, ...problem.path], msg: API_TEXTS.prototypeKey, type: 'prototype_key' }
      : { loc: [where, ...problem.path], msg: API_TEXTS.tooDeep, type: 'too_deep' },
  ]);
}
