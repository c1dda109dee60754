import { setTimeout as sleep } from 'node:timers/promises';
import {
  LoginCookie,
  AddressBudget,
  LoginRateLimiter,
  OidcClient,
  createLocalOidcProvider,
  type Bus,
  type CheckpointStore,
  type Config,
  type EventStore,
  type Logger,
  type Messaging,
  type Subscription,
  type VideoProvider,
} from '@telemed/platform';
import { startRelay } from './relay';
import { startSlotReleaser } from './process-managers/release-slots';
import { startFeeSettler } from './process-managers/fees';
import { startWaitlistOffers } from './waitlist/offers';
import type { WaitlistLookups } from './waitlist/service';
import { startSweeps, type SweepLookups } from './process-managers/sweeps';
import { startConsultationLimit, type ConsultationLookups } from './process-managers/consultation-limit';
import { startConsultationCloser } from './process-managers/consultation-closer';
import { startDisconnectRecorder } from './process-managers/disconnected-participants';
import { startAccountCloser, type AccountLookups } from './process-managers/close-accounts';
import { startUnavailableDoctorCloser } from './process-managers/unavailable-doctor';
import { startWithdrawnConsentCloser } from './process-managers/withdrawn-consent';
import { startLateRequestCloser } from './process-managers/late-requests';
import type { BookingLookups } from './appointments/bookable';
import { startBlogScheduler, type BlogLookups } from './process-managers/publish-scheduled';
import { startMessaging } from './messaging/background';
import type { MessageLookups } from './messaging/dispatch';
import type { MessageChannel } from '@telemed/contracts';
import type { MessageSender } from '@telemed/platform';

/**
 * Sign-in pieces from the configuration: rate limits, the OpenID Connect client, and the local provider in development;
 * and the budget of what readers who are not signed in may write (views of public posts).
 */
export function identityFromConfig(config: Config, secret: Uint8Array) {
  const { identity } = config;
  return {
    loginLimiter: new LoginRateLimiter({
      perAccountAddress: config.LOGIN_RATE_LIMIT_PER_ACCOUNT_ADDRESS,
      perAccount: config.LOGIN_RATE_LIMIT_PER_ACCOUNT,
      perAddress: config.LOGIN_RATE_LIMIT_PER_ADDRESS,
      windowSeconds: config.LOGIN_RATE_LIMIT_WINDOW_SECONDS,
      delaySeconds: config.LOGIN_RATE_LIMIT_DELAY_SECONDS,
    }),
    anonymousViews: new AddressBudget({ points: config.BLOG_VIEWS_PER_ADDRESS_PER_HOUR, windowSeconds: 3600, name: 'blog-views' }),
    oidc: new OidcClient({ ...identity, allowHttp: identity.kind === 'local' }),
    loginCookie: new LoginCookie(secret, { path: '/api/v1/auth', secure: config.publicUrl.startsWith('https:') }),
    // Never in production: loadConfig refuses to start there without a Google client.
    localProvider: identity.kind === 'local' ? createLocalOidcProvider({ ...identity, redirectUris: [identity.redirectUri] }) : null,
  };
}

/** Test-only fault injection, refused in production by the configuration. */
/** What the messaging and phone routes take, from the configured channels (`messagingFromConfig`). */
export function messagingRouteDepsFromConfig(config: Config, messaging: Messaging, onQueued: (messageId: string) => void) {
  const { senders, outbox, callbackSecret, whatsapp } = messaging;
  return { senders, outbox, callbackSecret, whatsapp, publicUrl: config.publicUrl, leaseMs: config.MESSAGE_LEASE_MS, phoneCountries: config.PHONE_COUNTRIES, onQueued };
}

export function faultsFromConfig(config: Config) {
  const crash = () => process.kill(process.pid, 'SIGKILL');
  if (config.FAULT_INJECTION === 'crash-after-slot-reserved') return { afterSlotReserved: crash };
  // Between a move's two writes: the new slot held, the move not yet recorded (issue 35).
  if (config.FAULT_INJECTION === 'crash-after-move-held') return { afterMoveHeld: crash };
  // Between a payment's verified capture and its credit (issue 36): the gateway's webhook comes again after a restart.
  if (config.FAULT_INJECTION === 'crash-after-capture-verified') return { afterCaptureVerified: crash };
  return undefined;
}

/**
 * The write side's background work: the bus relay, the slot releaser, the account closer, the closer of a deactivated
 * doctor's appointments, the sweeps and the consultation's limit and closer.
 */
export async function startCommandBackground(deps: {
  config: Config;
  eventStore: EventStore;
  bus: Bus;
  checkpoints: CheckpointStore;
  logger: Logger;
  clock: () => Date;
  /** The blog scheduler's lookups (issue 16); without them no scheduled post is published. */
  lookups: SweepLookups & ConsultationLookups & AccountLookups & BookingLookups & WaitlistLookups & Partial<BlogLookups> & Partial<MessageLookups>;
  video: VideoProvider;
  /** The channels messages go out on (issue 34); without them (or the lookups) no message is queued or sent. */
  senders?: ReadonlyMap<MessageChannel, MessageSender>;
}) {
  const managers = [
    await startSlotReleaser(deps),
    await startFeeSettler(deps),
    await startConsultationCloser(deps),
    await startAccountCloser(deps),
    await startUnavailableDoctorCloser(deps),
    await startWithdrawnConsentCloser(deps),
    await startLateRequestCloser(deps),
    await startWaitlistOffers(deps),
  ];
  const subscriptions: Subscription[] = [await startRelay(deps), await startDisconnectRecorder(deps), ...managers];
  const sweeps = startSweeps({ ...deps, graceMs: deps.config.RESERVATION_HEAL_GRACE_MS, intervalMs: deps.config.SWEEP_INTERVAL_MS });
  void sweeps.runNow();
  const limit = startConsultationLimit({ ...deps, intervalMs: deps.config.CONSULTATION_SWEEP_INTERVAL_MS });
  void limit.runNow();
  const { scheduledPostsDueBefore, nextScheduledPublish } = deps.lookups;
  const blogs =
    scheduledPostsDueBefore && nextScheduledPublish
      ? startBlogScheduler({ ...deps, lookups: { scheduledPostsDueBefore, nextScheduledPublish }, intervalMs: deps.config.SWEEP_INTERVAL_MS })
      : null;
  void blogs?.runNow();
  const { messagesDueBy, nextMessageDue } = deps.lookups;
  const messaging =
    deps.senders && messagesDueBy && nextMessageDue
      ? await startMessaging({
          ...deps,
          senders: deps.senders,
          publicUrl: deps.config.publicUrl,
          lookups: { messagesDueBy, nextMessageDue },
          reminderOffsetsMinutes: deps.config.REMINDER_OFFSETS_MINUTES,
          intervalMs: deps.config.MESSAGE_DISPATCH_INTERVAL_MS,
          leaseMs: deps.config.MESSAGE_LEASE_MS,
        })
      : null;
  if (messaging) managers.push(messaging.notifications);
  void messaging?.runNow();
  return {
    /** Wakes the message dispatcher (a route queued a message for now). */
    messagesQueued: (messageId: string) => messaging?.onQueued(messageId),
    /**
     * Whether every process manager fed by the log has acted on the events up to `position`, waiting up to
     * `timeoutMs` (what a test waits on before it reads: the writes those managers make follow from events already in
     * the log).
     */
    async waitForProcessManagers(position: number, timeoutMs: number): Promise<boolean> {
      const deadline = Date.now() + timeoutMs;
      while (managers.some((m) => m.processed < position)) {
        if (Date.now() > deadline) return false;
        await sleep(5);
      }
      // The messages those managers queued for now are sent right away, outside the log's subscriptions.
      await messaging?.idle();
      return true;
    },
    runSweepsNow: async () => {
      await sweeps.runNow();
      await limit.runNow();
      await blogs?.runNow();
      await messaging?.runNow();
    },
    async stop() {
      await messaging?.stop();
      sweeps.stop();
      limit.stop();
      blogs?.stop();
      for (const s of subscriptions) await s.stop();
    },
  };
}
