import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import {
  ApiRouter,
  type ConsultationSettings,
  type LoginCookie,
  type AddressBudget,
  type LoginRateLimiter,
  type OidcClient,
  type TokenCheck,
  type TokenService,
  type PaymentGateway,
  type VideoProvider,
} from '@telemed/platform';
import type { CommandDeps } from './context';
import { userRoutes } from './users/routes';
import { scheduleRoutes } from './schedule/routes';
import { appointmentRoutes } from './appointments/routes';
import { googleRoutes, identityRoutes } from './identity/routes';
import { institutionRoutes, streamInstitutionResolver } from './institutions/routes';
import { consentRoutes } from './consents/routes';
import { erasureRoutes } from './users/erasure';
import { consultationRoutes } from './consultations/routes';
import { adminCommandRoutes } from './admin/routes';
import { recordRoutes, type RecordDeps } from './records/routes';
import { blogRoutes } from './blogs/routes';
import type { BookingLookups } from './appointments/bookable';
import { messagingRoutes, type MessagingRouteDeps } from './messaging/routes';
import { phoneRoutes } from './messaging/phone-routes';
import { waitlistRoutes } from './waitlist/routes';
import { walletRoutes } from './wallet/routes';
import type { WalletLookups } from './wallet/reconciliation';

export { registerUser, loadUser, findUserIdByEmail, type NewUser } from './users/service';
export { startSession } from './identity/sessions';
export { sessionUser } from './identity/routes';
export { setAvailability } from './schedule/service';
export { loadFutureSchedule, monthsAhead } from './schedule/schedule-months';
export { requestAppointment, changeAppointment } from './appointments/service';
export { giveConsent, withdrawConsent } from './consents/service';
export { eraseUser } from './users/erasure';
export { startSlotReleaser } from './process-managers/release-slots';
export { endConsultationsAtLimit, startConsultationLimit, type ConsultationLookups, type OpenConsultation } from './process-managers/consultation-limit';
export { consultationDecider, type ConsultationState, type ConsultationCommand } from './consultations/consultation';
export { startSweeps, expireStaleRequests, healOrphanedReservations, type SweepLookups, type PendingRequest, type PendingReservation } from './process-managers/sweeps';
export { systemContext, handleCommand, readStream, type CommandContext, type Decider } from './decider';
export { slotIdFor, slotStartFromId } from './schedule/slot-id';
export type { CommandDeps } from './context';
export type { RecordDeps, RecordLookups } from './records/routes';
export { BookingChecks, type BookingLookups } from './appointments/bookable';
export { notesDecider } from './records/notes';
export { prescriptionDecider, lineRefusal } from './records/prescription';
export { uploadDecider } from './records/uploads';
export { storeBrandCatalogue } from './records/medicine-import';
export { blogPostDecider } from './blogs/post';
export { publishScheduledPosts, type BlogLookups } from './process-managers/publish-scheduled';

/** The write side's HTTP API: every route appends events through a decider. */
export function createCommandService(
  deps: CommandDeps & {
    tokens: TokenService;
    registry: OpenAPIRegistry;
    loginLimiter: LoginRateLimiter;
    /** Views of public posts counted per address for readers not signed in. */
    anonymousViews?: AddressBudget;
    checkToken?: TokenCheck;
    oidc: OidcClient;
    loginCookie: LoginCookie;
    /** The consultation's video provider (peer to peer or LiveKit) and its settings (limit, join window, ICE servers). */
    video: VideoProvider;
    consultation: ConsultationSettings;
    /** Clinical records (issue 14): blobs, the medicine catalogue and the id lookups the prescription rules use. */
    records?: RecordDeps;
    /** What booking looks up by id: the institutions a doctor practises through (whose deactivation refuses bookings). */
    bookingLookups: BookingLookups;
    /** Messages outside the browser and sign-in by phone (issue 34): the channels, the outbox, the webhooks' secrets. */
    messaging?: Omit<MessagingRouteDeps, 'eventStore' | 'clock' | 'logger'>;
    /** Where packs are paid (issue 36): Razorpay, or the local test gateway outside production. */
    gateway?: PaymentGateway;
    /** The packs the wallets credited, from the read models (the reconciliation). */
    walletLookups?: WalletLookups;
  },
) {
  const api = new ApiRouter({
    tokens: deps.tokens,
    registry: deps.registry,
    basePath: '/api/v1',
    checkToken: deps.checkToken,
    resolveInstitution: streamInstitutionResolver(deps),
  });
  identityRoutes(api, deps);
  googleRoutes(api, deps);
  userRoutes(api, deps);
  scheduleRoutes(api, deps);
  // Before booking: the property tests walk routes in order, and a withdrawal then an agreement leave consent in place.
  consentRoutes(api, deps);
  appointmentRoutes(api, deps);
  waitlistRoutes(api, deps);
  if (deps.gateway) walletRoutes(api, { ...deps, gateway: deps.gateway });
  institutionRoutes(api, deps);
  erasureRoutes(api, deps);
  consultationRoutes(api, { ...deps, settings: deps.consultation });
  adminCommandRoutes(api, deps);
  if (deps.records) recordRoutes(api, { ...deps, ...deps.records });
  blogRoutes(api, { ...deps, blobs: deps.records?.blobs });
  if (deps.messaging) {
    const messaging = { ...deps, ...deps.messaging };
    phoneRoutes(api, messaging);
    messagingRoutes(api, messaging);
  }
  return { router: api.router, routes: api.routes };
}
export { startRelay, eventSubject } from './relay';
export { dispatchDueMessages, dispatchMessage, type MessageLookups, type DueMessage } from './messaging/dispatch';
export { messageIdFor, appointmentMessageKey, messageDecider } from './messaging/message';
export { walletDecider, type WalletCommand, type WalletEvent, type WalletState } from './wallet/wallet';
export { userDecider } from './users/user';
export { identityFromConfig, faultsFromConfig, messagingRouteDepsFromConfig, startCommandBackground } from './wiring';
export { createInstitution, addDoctor, answerInvitation } from './institutions/service';
