import { Lru } from '@telemed/platform';
import type { SignalLimit, SignalType } from '@telemed/contracts';

/**
 * What one person may have relayed, whatever the number of their sockets (issue 31: one patient with 10 sockets, each
 * within its own budget, relayed 609 offers, 5.6 MB, to the doctor in 3.7 s). A call's setup is one or two offers, an
 * answer and a few dozen ICE candidates of a few hundred bytes; a reconnect or an ICE restart negotiates again (an offer
 * and its candidates). These leave several times that room and stop a flood after a burst.
 */
export const SIGNAL_LIMITS = {
  /** Signals of one user relayed per window, from all their sockets on this replica (a token bucket: bursts up to this). */
  userSignals: 120,
  /** Bytes of those signals (frames as received) per window: a flood of large offers stops before the count does. */
  userBytes: 256 * 1024,
  userWindowMs: 10_000,
  /** Offers one participant may send in one consultation per window (setup, glare, a reconnect or ICE restart each). */
  consultationOffers: 20,
  consultationWindowMs: 60_000,
} as const;

export type SignalLimits = { [K in keyof typeof SIGNAL_LIMITS]: number };

/** Budgets kept at most for this many users (and as many consultation senders); the least recently used go first. */
const TRACKED = 50_000;

class Bucket {
  private tokens: number;
  private refilledAt: number;

  constructor(
    private readonly capacity: number,
    private readonly windowMs: number,
    now: number,
  ) {
    this.tokens = capacity;
    this.refilledAt = now;
  }

  /** Milliseconds until `cost` is available (0: now), after refilling to `now`. */
  wait(cost: number, now: number): number {
    this.tokens = Math.min(this.capacity, this.tokens + ((now - this.refilledAt) * this.capacity) / this.windowMs);
    this.refilledAt = now;
    return this.tokens >= cost ? 0 : Math.ceil(((cost - this.tokens) * this.windowMs) / this.capacity);
  }

  take(cost: number): void {
    this.tokens -= cost;
  }
}

export interface OverBudget {
  limit: SignalLimit;
  retryAfterMs: number;
  /** The first refusal since this budget last let a signal through (worth a warning; the rest are the same flood). */
  first: boolean;
}

/**
 * Token buckets for relayed signals keyed by person (count and bytes, shared by all their sockets) and by consultation
 * and sender (offers). A signal is charged to all of them or to none; one over any budget is not relayed.
 */
export class SignalBudgets {
  private readonly limits: SignalLimits;
  private readonly users = new Lru<string, { signals: Bucket; bytes: Bucket; refusing: boolean }>(TRACKED);
  private readonly offers = new Lru<string, Bucket>(TRACKED);

  constructor(limits: Partial<SignalLimits> = {}) {
    this.limits = { ...SIGNAL_LIMITS, ...limits };
  }

  charge(userId: string, appointmentId: string, type: SignalType, bytes: number, now: number): OverBudget | null {
    const { limits } = this;
    let user = this.users.get(userId);
    if (!user) {
      user = { signals: new Bucket(limits.userSignals, limits.userWindowMs, now), bytes: new Bucket(limits.userBytes, limits.userWindowMs, now), refusing: false };
      this.users.set(userId, user);
    }
    let offers: Bucket | null = null;
    if (type === 'rtc_offer') {
      const key = `${appointmentId} ${userId}`;
      offers = this.offers.get(key) ?? null;
      if (!offers) this.offers.set(key, (offers = new Bucket(limits.consultationOffers, limits.consultationWindowMs, now)));
    }
    const waits: Array<[SignalLimit, number]> = [
      ['offers', offers?.wait(1, now) ?? 0],
      ['signals', user.signals.wait(1, now)],
      ['bytes', user.bytes.wait(bytes, now)],
    ];
    const over = waits.find(([, wait]) => wait > 0);
    if (over) {
      const first = !user.refusing;
      user.refusing = true;
      return { limit: over[0], retryAfterMs: over[1], first };
    }
    offers?.take(1);
    user.signals.take(1);
    user.bytes.take(bytes);
    user.refusing = false;
    return null;
  }
}
