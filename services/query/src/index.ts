import type { MessageChannel } from '@telemed/contracts';
import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import type { RequestHandler } from 'express';
import { MIN_POSITION_WAIT_MS } from '@telemed/contracts';
import { ApiRouter, keyRingOf, type BlobStore, type EventStore, type Logger, type ReadStore, type TokenCheck, type TokenService, type WritingAssistant } from '@telemed/platform';
import { allProjections, type Projection } from './projections';
import { ProjectionRunner } from './projection-runner';
import { userQueryRoutes } from './users/routes';
import { doctorQueryRoutes } from './users/doctor-routes';
import { bookingRulesQueryRoutes } from './users/booking-rules';
import { waitlistQueryRoutes } from './waitlist/routes';
import { walletQueryRoutes } from './wallet/routes';
import { scheduleQueryRoutes } from './schedule/routes';
import { appointmentQueryRoutes } from './appointments/routes';
import { institutionQueryRoutes } from './institutions/routes';
import { institutionLookups } from './institutions/lookups';
import { consentQueryRoutes } from './consents/routes';
import { privacyQueryRoutes } from './privacy/routes';
import { AccessAudit } from '@telemed/platform';
import { consultationQueryRoutes } from './consultations/routes';
import { recordQueryRoutes } from './records/routes';
import type { MedicineCatalogue } from '@telemed/medicines';
import { adminQueryRoutes } from './admin/routes';
import { blogQueryRoutes } from './blogs/routes';
import { messagingQueryRoutes } from './messaging/routes';
import { withSealedFieldsOpened } from './sealed-read-fields';

export { ProjectionRunner, projectionChecksum, readModelsChecksum } from './projection-runner';
export { projectionHoldFromConfig } from './projection-hold';
export { openSealedFields, withSealedFieldsOpened } from './sealed-read-fields';
export { allProjections } from './projections';
export { blogPostsProjection } from './blogs/projection';
export { consultationLookups } from './consultations/lookups';
export { consultationView } from './consultations/view';
export type { ConsultationDoc } from './consultations/projection';
export { recordLookups } from './records/lookups';
export { recordsForExport } from './records/patient-records';
export { bookingLookups, bookableDoctors } from './users/bookable-doctors';
export { walletLookups } from './wallet/lookups';
export { appointmentPeople, appointmentMessageView } from './appointments/people';
export { blogLookups } from './blogs/lookups';
export { publishedPostsOf, publishedPostBySlug, publishedPostsForSitemap, publishedPostsRevision } from './blogs/published';
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
  /** The channels messages go out on here (availableChannels of the configuration); none when not given. */
  messageChannels?: readonly MessageChannel[];
  /** What a patient's wallet opens with (STARTING_CREDITS): a wallet never changed shows it. */
  startingCredits?: number;
  /** Who sells the packs, as their receipts name them (BUSINESS_NAME, BUSINESS_ADDRESS, BUSINESS_GSTIN). */
  seller?: { name: string; address?: string; gstin?: string };
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
  bookingRulesQueryRoutes(api, served);
  waitlistQueryRoutes(api, { readStore: served, clock: deps.clock });
  walletQueryRoutes(api, { readStore: served, clock: deps.clock, startingCredits: deps.startingCredits, seller: deps.seller });
  scheduleQueryRoutes(api, { readStore: served, clock: deps.clock });
  appointmentQueryRoutes(api, { readStore: served, clock: deps.clock, institutionReadingAppointment: lookups.institutionReadingAppointment, audit });
  institutionQueryRoutes(api, served, audit);
  consentQueryRoutes(api, served);
  messagingQueryRoutes(api, { readStore: served, audit, institutionReadingAppointment: lookups.institutionReadingAppointment, channels: deps.messageChannels ?? [] });
  privacyQueryRoutes(api, { readStore: served, clock: deps.clock, publicUrl: deps.records?.publicUrl, blobs: deps.records?.blobs });
  consultationQueryRoutes(api, { readStore: served, clock: deps.clock, audit });
  if (deps.records) recordQueryRoutes(api, { readStore: served, audit, ...deps.records });
  adminQueryRoutes(api, { readStore: served, audit, projections: { projections, runner, storedReadStore: deps.readStore, runsProjections: deps.waitForPosition === undefined } });
  blogQueryRoutes(api, { readStore: served, blobs: deps.records?.blobs, clock: deps.clock, tokens: deps.tokens, writing: deps.writing, logger: deps.logger });

  return { router: api.router, routes: api.routes, runner };
}

export { messageLookups } from './messaging/lookups';
export { sweepLookups, checkpointWaiter, followLogIfReadModelsAreLocal } from './read-model-lookups';
export { readModelTokenCheck } from './identity/token-check';
