import { NO_SHOW_DOCTOR_WAIT_MINUTES, NO_SHOW_GRACE_MINUTES, SLOT_MINUTES } from '@telemed/contracts/constants';

const MINUTE = 60_000;

/** What the screens know of an appointment to tell whether its doctor may mark the patient absent. */
export interface AbsenceFacts {
  status: string;
  startAt: string;
}

/**
 * When a doctor may mark the patient absent, as the server decides it (issue 35): a confirmed appointment, from
 * NO_SHOW_DOCTOR_WAIT_MINUTES after its start until NO_SHOW_GRACE_MINUTES after its end (then the system closes it).
 * Whether the patient joined is the server's to say: the lists do not tell who joined, so its refusal is shown.
 */
export function absenceWindow(startAt: string): { from: number; until: number } {
  const start = Date.parse(startAt);
  return { from: start + NO_SHOW_DOCTOR_WAIT_MINUTES * MINUTE, until: start + (SLOT_MINUTES + NO_SHOW_GRACE_MINUTES) * MINUTE };
}

export function canMarkAbsent(facts: AbsenceFacts, now = Date.now()): boolean {
  if (facts.status !== 'confirmed') return false;
  const { from, until } = absenceWindow(facts.startAt);
  return now >= from && now < until;
}
