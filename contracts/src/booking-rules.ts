/**
 * The rules a patient's change to an appointment follows (issue 35): how long before its start a patient may still
 * move it (and cancel it without it counting against them), what a cancellation later than that counts as, how many
 * times one appointment may be moved, and whether a confirmed appointment the patient moves stays confirmed. A doctor
 * sets their own; a clinic sets defaults for the doctors who practise through it; otherwise these. No zod here: the
 * screens import it (`@telemed/contracts/booking-rules`).
 */

/** What a patient's cancellation inside the notice counts as: an ordinary cancellation, or a no-show. */
export const LATE_CANCELLATION_KINDS = ['cancellation', 'no_show'] as const;
export type LateCancellation = (typeof LATE_CANCELLATION_KINDS)[number];

export interface BookingRules {
  /** A patient's move must come at least this long before the appointment's start. */
  minNoticeMinutes: number;
  /** How many times one appointment may be moved. */
  maxReschedules: number;
  /** What a patient's cancellation less than `minNoticeMinutes` before the start counts as. */
  lateCancellation: LateCancellation;
  /** A confirmed appointment the patient moves stays confirmed (else it waits for the doctor's approval again). */
  autoAcceptMoves: boolean;
}

export const DEFAULT_BOOKING_RULES = {
  minNoticeMinutes: 120,
  maxReschedules: 2,
  lateCancellation: 'cancellation',
  autoAcceptMoves: false,
} as const satisfies BookingRules;

/** What a doctor or a clinic may set: the notice in steps of a quarter hour up to a week, up to five moves. */
export const BOOKING_RULE_LIMITS = {
  minNoticeMinutes: { min: 0, max: 7 * 24 * 60, step: 15 },
  maxReschedules: { min: 0, max: 5 },
} as const;

/** Where a doctor's rules come from: their own, the clinics' defaults, or the product's. */
export type BookingRulesSource = 'doctor' | 'institution' | 'default';

/**
 * A clinic's no-show policy (issue 35; off unless a clinic sets it): a patient who missed `limit` appointments in the
 * last NO_SHOW_WINDOW_MONTHS (no-shows of theirs, and late cancellations the doctor's rules count as no-shows) may not
 * book with the clinic's doctors for `blockMonths` after the latest of them.
 */
export interface NoShowPolicy {
  limit: number;
  blockMonths: number;
}
export const NO_SHOW_WINDOW_MONTHS = 12;
/** How long a policy blocks when a clinic sets a limit without saying. */
export const DEFAULT_NO_SHOW_BLOCK_MONTHS = 3;
export const NO_SHOW_POLICY_LIMITS = { limit: { min: 1, max: 10 }, blockMonths: { min: 1, max: 12 } } as const;

/** A clinic's defaults: everything but auto-accepting moves, which stays each doctor's own choice; and its no-show policy. */
export type ClinicBookingRules = Omit<BookingRules, 'autoAcceptMoves'> & { noShowPolicy: NoShowPolicy | null };

/**
 * The no-show policy a doctor's bookings follow: of the clinics they practise through that set one, the strictest (the
 * fewest misses, the longest block), whatever the doctor's own rules; null when none does.
 */
export function noShowPolicyOf(clinics: readonly Pick<ClinicBookingRules, 'noShowPolicy'>[]): NoShowPolicy | null {
  const policies = clinics.flatMap((clinic) => (clinic.noShowPolicy ? [clinic.noShowPolicy] : []));
  if (policies.length === 0) return null;
  return { limit: Math.min(...policies.map((p) => p.limit)), blockMonths: Math.max(...policies.map((p) => p.blockMonths)) };
}

/** Adds calendar months in UTC (the 31st into a shorter month ends on its last day). */
export function plusMonths(at: Date, months: number): Date {
  const moved = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + months, 1, at.getUTCHours(), at.getUTCMinutes(), at.getUTCSeconds()));
  const lastDay = new Date(Date.UTC(moved.getUTCFullYear(), moved.getUTCMonth() + 1, 0)).getUTCDate();
  moved.setUTCDate(Math.min(at.getUTCDate(), lastDay));
  return moved;
}

/**
 * Until when a patient may not book under `policy`, given the starts of their missed appointments: when at least
 * `limit` of them fall in the last NO_SHOW_WINDOW_MONTHS, `blockMonths` after the latest; null when they may book now.
 */
export function bookingBlockedUntil(policy: NoShowPolicy | null, missedStarts: readonly string[], now: Date): Date | null {
  if (!policy) return null;
  const windowStart = plusMonths(now, -NO_SHOW_WINDOW_MONTHS).getTime();
  // A late cancellation counts from when it is made, though its start may still be ahead.
  const missed = missedStarts.map((start) => new Date(start).getTime()).filter((at) => at >= windowStart);
  if (missed.length < policy.limit) return null;
  const until = plusMonths(new Date(Math.max(...missed)), policy.blockMonths);
  return until.getTime() > now.getTime() ? until : null;
}

/** Which bound a notice or a number of moves breaks, or null when it keeps them. */
export function bookingRulesProblem(rules: Pick<BookingRules, 'minNoticeMinutes' | 'maxReschedules'>): 'notice' | 'reschedules' | null {
  const { minNoticeMinutes: notice, maxReschedules: moves } = BOOKING_RULE_LIMITS;
  const n = rules.minNoticeMinutes;
  if (!Number.isInteger(n) || n < notice.min || n > notice.max || n % notice.step !== 0) return 'notice';
  const m = rules.maxReschedules;
  if (!Number.isInteger(m) || m < moves.min || m > moves.max) return 'reschedules';
  return null;
}

/**
 * A doctor's rules in effect: their own when they set them; else the defaults of the clinics they practise through,
 * each rule at its strictest among them (the longest notice, the fewest moves, a late cancellation a no-show if any
 * clinic counts it so), so that no clinic's rule is loosened by another's and the order of the clinics does not
 * matter; else the product's. Auto-accepting moves is only ever the doctor's own choice.
 */
export function effectiveBookingRules(own: BookingRules | null, clinics: readonly ClinicBookingRules[]): { rules: BookingRules; source: BookingRulesSource } {
  if (own) return { rules: own, source: 'doctor' };
  if (clinics.length === 0) return { rules: DEFAULT_BOOKING_RULES, source: 'default' };
  return {
    rules: {
      minNoticeMinutes: Math.max(...clinics.map((c) => c.minNoticeMinutes)),
      maxReschedules: Math.min(...clinics.map((c) => c.maxReschedules)),
      lateCancellation: clinics.some((c) => c.lateCancellation === 'no_show') ? 'no_show' : 'cancellation',
      autoAcceptMoves: false,
    },
    source: 'institution',
  };
}
