import { FOLLOW_UP_LIMITS } from '@telemed/contracts/follow-ups';
import type { MessageId } from '../../i18n/useT';

/** The follow-up the doctor offers with final notes that say one is required (issue 35), as typed. */
export interface FollowUpOfferInput {
  days: string;
  fee: string;
}

export const DEFAULT_FOLLOW_UP_OFFER: FollowUpOfferInput = { days: String(FOLLOW_UP_LIMITS.defaultDays), fee: String(FOLLOW_UP_LIMITS.defaultFee) };

const WHOLE = /^\d+$/;

/** What is wrong with each field as typed (a message id), or null: whole days 1..90, a whole fee of 0 (free) or more. */
export function followUpOfferProblems(offer: FollowUpOfferInput): { days: MessageId | null; fee: MessageId | null } {
  const days = offer.days.trim();
  const fee = offer.fee.trim();
  const daysOk = WHOLE.test(days) && Number(days) >= FOLLOW_UP_LIMITS.minDays && Number(days) <= FOLLOW_UP_LIMITS.maxDays;
  return { days: daysOk ? null : 'records.followUpDaysInvalid', fee: WHOLE.test(fee) ? null : 'records.followUpFeeInvalid' };
}

/** The offer as the notes save sends it, or null while a field is wrong. */
export function followUpOfferBody(offer: FollowUpOfferInput): { follow_up_within_days: number; follow_up_fee: number } | null {
  const problems = followUpOfferProblems(offer);
  if (problems.days || problems.fee) return null;
  return { follow_up_within_days: Number(offer.days.trim()), follow_up_fee: Number(offer.fee.trim()) };
}
