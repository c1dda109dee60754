import { DEFAULT_BOOKING_RULES, type BookingRules } from '@telemed/contracts/booking-rules';
import type { Translate } from '../../i18n/useT';

/** The rules a move is held to: the notice before the current start, the number of moves, and whether the doctor approves it again. */
export type MoveRules = Pick<BookingRules, 'minNoticeMinutes' | 'maxReschedules' | 'autoAcceptMoves'>;
export const MOVE_RULES: MoveRules = DEFAULT_BOOKING_RULES;

/** What the screens know of an appointment to tell whether it can be moved. */
export interface MoveFacts {
  status: string;
  startAt: string;
  reschedules: number;
  consultationBegun: boolean;
}

/**
 * Whether the patient may move the appointment now, as the server decides it (and in its order: the notice before the
 * limit), so the screen says why instead of offering a move the server would refuse. `null`: no move is offered at
 * all (closed, or its consultation has begun).
 */
export type MoveRefusal = 'not_allowed' | 'too_late' | 'limit';
export type MoveCheck = { allowed: true; movesLeft: number } | { allowed: false; reason: MoveRefusal };

export function moveCheck(facts: MoveFacts, now = Date.now(), rules: MoveRules = MOVE_RULES): MoveCheck | null {
  if ((facts.status !== 'requested' && facts.status !== 'confirmed') || facts.consultationBegun) return null;
  // A doctor allowing no moves at all: that, not the notice, is why (the server would refuse at its limit).
  if (rules.maxReschedules === 0) return { allowed: false, reason: 'not_allowed' };
  if (Date.parse(facts.startAt) - now < rules.minNoticeMinutes * 60_000) return { allowed: false, reason: 'too_late' };
  if (facts.reschedules >= rules.maxReschedules) return { allowed: false, reason: 'limit' };
  return { allowed: true, movesLeft: rules.maxReschedules - facts.reschedules };
}

/** The notice in words: '2 hours', or '90 minutes' when it is not whole hours. */
export function noticeWords(t: Translate, minutes: number): string {
  return minutes % 60 === 0 ? t('patient.noticeHours', { hours: minutes / 60 }) : t('patient.noticeMinutes', { minutes });
}

/** 'You can move an appointment up to 2 hours before it starts, at most 2 times.' */
export function ruleText(t: Translate, rules: MoveRules = MOVE_RULES): string {
  return t('patient.rescheduleRule', { notice: noticeWords(t, rules.minNoticeMinutes), times: rules.maxReschedules });
}

/** Why a move is not offered, in words. */
export function refusalText(t: Translate, reason: MoveRefusal, rules: MoveRules = MOVE_RULES): string {
  if (reason === 'not_allowed') return t('patient.rescheduleNotAllowed');
  return reason === 'too_late'
    ? t('patient.rescheduleTooLate', { notice: noticeWords(t, rules.minNoticeMinutes) })
    : t('patient.rescheduleLimitReached', { times: rules.maxReschedules });
}
