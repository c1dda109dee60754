/**
 * Follow-ups (issue 35): a doctor whose final notes say a follow-up is required offers one within some days of the
 * consultation, at a fee (free by default, at most their consultation fee); the patient books one of that doctor's
 * slots starting in that window, once.
 */
export const FOLLOW_UP_LIMITS = {
  minDays: 1,
  maxDays: 90,
  defaultDays: 7,
  /** Free unless the doctor says otherwise. */
  defaultFee: 0,
} as const;

const DAY_MS = 24 * 60 * 60 * 1000;

/** The end of a follow-up's window: the consultation's end plus the days offered (a follow-up must start before it). */
export function followUpUntil(consultationEnd: string, withinDays: number): string {
  return new Date(new Date(consultationEnd).getTime() + withinDays * DAY_MS).toISOString();
}
