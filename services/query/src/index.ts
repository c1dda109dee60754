import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import type { RequestHandler } from 'express';
import { MIN_POSITION_WAIT_MS, conflict, notFound, z } from '@telemed/contracts';
import { ApiRouter, keyRingOf, policies, type BlobStore, type EventStore, type Logger, type ReadStore, type TokenCheck, type TokenService, type WritingAssistant } from '@telemed/platform';
import { allProjections, type Projection } from './projections';
import { ProjectionRunner, RebuildUnderWay, projectionChecksum } from './projection-runner';
import { userQueryRoutes } from './users/routes';
import { doctorQueryRoutes } from './users/doctor-routes';
import { scheduleQueryRoutes } from './schedule/routes';
import { appointmentQueryRoutes } from './appointments/routes';
import { institutionLookups, institutionQueryRoutes } from './institutions/routes';
import { consentQueryRoutes } from './consents/routes';
import { privacyQueryRoutes } from './privacy/routes';
import { AccessAudit } from '@telemed/platform';
import { consultationQueryRoutes } from './consultations/routes';
import { recordQueryRoutes } from './records/routes';
import type { MedicineCatalogue } from '@telemed/medicines';
import { adminQueryRoutes } from './admin/routes';
import { blogQueryRoutes } from './blogs/routes';
import { withSealedFieldsOpened } from './sealed-read-fields';

export { ProjectionRunner, projectionChecksum, readModelsChecksum } from './projection-runner';
export { projectionHoldFromConfig } from './projection-hold';
export { openSealedFields, withSealedFieldsOpened } from './sealed-read-fields';
export { allProjections } from './projections';
export { blogPostsProjection } from './blogs/projection';
export { consultationLookups, consultationView } from './consultations/routes';
export type { ConsultationDoc } from './consultations/projection';
export { recordLookups, recordsForExport } from './records/routes';
export { bookingLookups, bookableDoctors } from './users/bookable-doctors';
export { appointmentPeople, appointmentMessageView } from './appointments/people';
export { blogLookups, publishedPostsOf, publishedPostBySlug, publishedPostsForSitemap, publishedPostsRevision } from './blogs/routes';
export type { Projection, SlotDoc, AppointmentDoc, UserDoc, DoctorDoc, SessionDoc } from './projections';

/** Read-your-writes: a query with X-Min-Position waits (up to 2 s) until the projections have applied it. */
function minPosition(waitFor: (position: number, timeoutMs: number) => Promise<boolean>, applied: () => number): RequestHandler {
  return async (req, res, next) => {
    const header = req.get('X-Min-Position');
    const wanted = header && /^\d{1,15}$/.test(header) ? Number(header) : 0;
    // A stale answer is never kept by a cache: a later 304 would carry the stale mark over to a current read.
    if (wanted > 0 && !(await waitFor(wanted, MIN_POSITION_WAIT_MS))) res.set({ 'X-Read-Model-Stale': 'true', 'Cache-Control': 'no-store' });
    res.set('X-Read-Model-Position', String(applied()));
    next();
  };
}

export function createQueryService(deps: {
  eventStore: EventStore;
  readStore: ReadStore;
  tokens: TokenService;
  registry: OpenAPIRegistry;
  logger: Logger;
  clock: () => Date;
  projections?: Projection[];
  checkToken?: TokenCheck;
  /** How reads wait for X-Min-Position when this process does not run the projections (default: its own runner). */
  waitForPosition?: (position: number, timeoutMs: number) => Promise<boolean>;
  /** Clinical records (issue 14): the encrypted blob store, the medicine catalogue, and where browsers reach the product (verification links). */
  records?: { blobs: BlobStore; medicines: MedicineCatalogue; publicUrl: string };
  /** The Writing Assistant's model (WRITING_MODEL_URL); unset: the bundled topic ideas. */
  writing?: WritingAssistant | null;
  /** Test-only: holds the live projections back (projectionHoldFromConfig). */
  holdProjections?: () => Promise<void>;
}) {
  const projections = deps.projections ?? allProjections;
  const runner = new ProjectionRunner({ eventStore: deps.eventStore, readStore: deps.readStore, projections, logger: deps.logger, holdBack: deps.holdProjections });
  const lookups = institutionLookups(deps.readStore);
  const api = new ApiRouter({
    tokens: deps.tokens,
    registry: deps.registry,
    basePath: '/api/v1',
    checkToken: deps.checkToken,
    resolveInstitution: lookups.resolve,
  });
  api.router.use(minPosition(deps.waitForPosition ?? ((position, timeoutMs) => runner.waitForPosition(position, timeoutMs)), () => runner.position));
  // The routes read the fields read models keep sealed in clear; the runner writes (and checksums) them as stored.
  const served = withSealedFieldsOpened(deps.readStore, keyRingOf(deps.eventStore));
  const audit = new AccessAudit({ eventStore: deps.eventStore, clock: deps.clock, logger: deps.logger });
  userQueryRoutes(api, { readStore: served });
  doctorQueryRoutes(api, { readStore: served, clock: deps.clock });
  scheduleQueryRoutes(api, { readStore: served, clock: deps.clock });
  appointmentQueryRoutes(api, { readStore: served, clock: deps.clock, institutionReadingAppointment: lookups.institutionReadingAppointment, audit });
  institutionQueryRoutes(api, served, audit);
  consentQueryRoutes(api, served);
  privacyQueryRoutes(api, { readStore: served, clock: deps.clock, publicUrl: deps.records?.publicUrl, blobs: deps.records?.blobs });
  consultationQueryRoutes(api, { readStore: served, clock: deps.clock, audit });
  if (deps.records) recordQueryRoutes(api, { readStore: served, audit, ...deps.records });
  adminQueryRoutes(api, { readStore: served, audit });
  blogQueryRoutes(api, { readStore: served, blobs: deps.records?.blobs, clock: deps.clock, tokens: deps.tokens, writing: deps.writing, logger: deps.logger });

  // The error's class and code only: a failure's message can quote the event's data (a name, a reason for a visit);
  // the log keeps it, scrubbed, for whoever reads the server's logs.
  const failureSchema = z.object({
    event: z.object({ position: z.number(), id: z.string(), type: z.string(), stream: z.string() }),
    error: z.string().openapi({ description: "The error's class and code (`TypeError`, `SqliteError (SQLITE_FULL)`), never its message: see the server's log" }),
  });
  api.route({
    method: 'get',
    path: '/admin/projections',
    summary:
      'Projections: version, checkpoint, lag behind the log in events, events per second, state, and with `checksum=true` (or the console\'s filter `{"checksum":true}`) the checksum (operators)',
    tags: ['operations'],
    policy: policies.roles('admin'),
    query: z.object({
      checksum: z.enum(['true', 'false']).optional().openapi({ description: 'Digest every document of each projection (reads the whole read model: ask only when comparing)' }),
      filter: z.string().max(200).optional().openapi({ description: 'react-admin\'s filter: `{"checksum":true}` as checksum=true' }),
    }),
    response: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        version: z.number(),
        position: z.number(),
        lag: z.number(),
        events_per_second: z.number(),
        state: z.enum(['live', 'rebuilding', 'failed']),
        progress: z.object({ applied: z.number(), position: z.number(), head: z.number(), percent: z.number() }).nullable(),
        failure: failureSchema.nullable(),
        checksum: z.string().nullable(),
      }),
    ),
    handler: async ({ res, query }) => {
      // A checksum reads and digests every document of the read models, a cost that grows with the whole history: only
      // when asked (comparing a rebuild with the live one), never for the lists polled while a rebuild runs.
      const withChecksums = query.checksum === 'true' || consoleAsksChecksums(query.filter);
      const rows = await Promise.all(
        projections.map(async (p) => {
          const state = runner.stateOf(p.name);
          return {
            id: p.name,
            name: p.name,
            version: p.version,
            position: runner.checkpointOf(p.name),
            lag: await runner.lagOf(p.name),
            events_per_second: runner.eventsPerSecond(p.name),
            state: state.state,
            progress: state.state === 'rebuilding' ? { applied: state.applied, position: state.position, head: state.head, percent: Math.round(state.progress * 100) } : null,
            failure: state.state === 'failed' ? { event: state.event, error: state.kind } : null,
            checksum: withChecksums ? await projectionChecksum(deps.readStore, p) : null,
          };
        }),
      );
      res.set('Content-Range', `projections 0-${Math.max(0, rows.length - 1)}/${rows.length}`);
      return { body: rows };
    },
  });

  api.route({
    method: 'post',
    path: '/admin/projections/:name/rebuild',
    summary: 'Rebuild one projection from the start of the log beside the live one, switching over when caught up (operators); follow it in the list',
    tags: ['operations'],
    policy: policies.roles('admin'),
    params: z.object({ name: z.string().min(1).max(64) }),
    response: z.object({ status: z.literal('rebuilding'), name: z.string() }),
    successStatus: 202,
    errors: [404, 409],
    handler: async ({ params }) => {
      if (!projections.some((p) => p.name === params.name)) throw notFound('Projection not found');
      if (deps.waitForPosition) throw conflict('This replica does not run the projections');
      try {
        await runner.rebuild(params.name);
      } catch (error) {
        if (error instanceof RebuildUnderWay) throw conflict(error.message);
        throw error;
      }
      return { body: { status: 'rebuilding' as const, name: params.name } };
    },
  });

  return { router: api.router, routes: api.routes, runner };
}
/** Whether react-admin's `filter` JSON asks for checksums (`{"checksum":true}`); anything else is no. */
function consoleAsksChecksums(filter: string | undefined): boolean {
  if (!filter) return false;
  try {
    return (JSON.parse(filter) as { checksum?: unknown } | null)?.checksum === true;
  } catch {
    return false;
  }
}

export { sweepLookups, checkpointWaiter, followLogIfReadModelsAreLocal } from './read-model-lookups';
export { readModelTokenCheck } from './identity/token-check';
