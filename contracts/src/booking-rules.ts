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

/** A clinic's defaults: everything but auto-accepting moves, which stays each doctor's own choice. */
export type ClinicBookingRules = Omit<BookingRules, 'autoAcceptMoves'>;

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
