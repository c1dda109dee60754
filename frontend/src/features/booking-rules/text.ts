import { DEFAULT_BOOKING_RULES, type BookingRules, type BookingRulesSource } from '@telemed/contracts/booking-rules';
import type { Translate } from '../../i18n/useT';

/**
 * The booking rules (issue 35) in the screens' words, from `bookingRules.*`: a notice as a length of time, and the
 * sentences a patient reads before booking or moving.
 */

const DAY = 24 * 60;

/** '2 hours', '45 minutes', '1 hour 30 minutes', '3 days' (whole days when the notice is whole days). */
export function noticeWords(t: Translate, minutes: number): string {
  if (minutes >= DAY && minutes % DAY === 0) return t('bookingRules.days', { count: minutes / DAY });
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours === 0) return t('bookingRules.minutes', { count: rest });
  if (rest === 0) return t('bookingRules.hours', { count: hours });
  return t('bookingRules.hoursMinutes', { hours: t('bookingRules.hours', { count: hours }), minutes: t('bookingRules.minutes', { count: rest }) });
}

/** The rules as a patient reads them: moving, cancelling late, and what a move does to a confirmed appointment. */
export function ruleSentences(t: Translate, rules: BookingRules): string[] {
  const notice = noticeWords(t, rules.minNoticeMinutes);
  const lines: string[] = [];
  if (rules.maxReschedules === 0) lines.push(t('bookingRules.moveNever'));
  else if (rules.minNoticeMinutes === 0) lines.push(t('bookingRules.moveRuleAnyTime', { moves: rules.maxReschedules }));
  else lines.push(t('bookingRules.moveRule', { notice, moves: rules.maxReschedules }));
  lines.push(rules.lateCancellation === 'no_show' && rules.minNoticeMinutes > 0 ? t('bookingRules.cancelLateNoShow', { notice }) : t('bookingRules.cancelAnyTime'));
  if (rules.maxReschedules > 0) lines.push(t(rules.autoAcceptMoves ? 'bookingRules.movesKeepConfirmed' : 'bookingRules.movesNeedApproval'));
  return lines;
}

/**
 * What the rules mean for a time that already starts inside the notice (a slot chosen for soon), or null: once booked,
 * it can no longer be moved, and cancelling it may count as a missed appointment.
 */
export function insideNoticeSentence(t: Translate, rules: BookingRules, startsAt: string, now: number): string | null {
  if (rules.minNoticeMinutes === 0 || Date.parse(startsAt) - now >= rules.minNoticeMinutes * 60_000) return null;
  const notice = noticeWords(t, rules.minNoticeMinutes);
  if (rules.maxReschedules > 0) return t('bookingRules.startsInsideNotice', { notice, late: rules.lateCancellation });
  return rules.lateCancellation === 'no_show' ? t('bookingRules.startsInsideNoticeCancel', { notice }) : null;
}

/** Where a doctor's rules come from, as the doctor's own card says it. */
export const SOURCE_TEXT = { doctor: 'bookingRules.fromDoctor', institution: 'bookingRules.fromClinic', default: 'bookingRules.fromDefault' } as const satisfies Record<BookingRulesSource, string>;

export { DEFAULT_BOOKING_RULES };
