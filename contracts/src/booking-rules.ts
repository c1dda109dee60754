/**
 * The rules a patient's change to an appointment follows (issue 35), until doctors and clinics set their own: how long
 * before its start a patient may still move it, and how many times one appointment may be moved.
 */
export const DEFAULT_BOOKING_RULES = {
  /** A patient's move must come at least this long before the appointment's start. */
  minNoticeMinutes: 120,
  /** How many times one appointment may be moved. */
  maxReschedules: 2,
} as const;

export interface BookingRules {
  minNoticeMinutes: number;
  maxReschedules: number;
}
