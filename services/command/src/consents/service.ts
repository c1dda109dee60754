import { CONSENT_NOTICE_VERSION, consentNotice, streams, type ConsentLanguage } from '@telemed/contracts';
import type { EventStore } from '@telemed/platform';
import { handleCommand, type CommandContext } from '../decider';
import { foldsPerEventStore } from '../stream-folds';
import { consentDecider, holdsConsent, type ConsentCommand } from './consent';

/**
 * Each event store's kept folds of patients' consents (StreamFolds; the state holds notice versions, hashes and the
 * account's standing, nothing personal): the user stream grows with every edit, subscription and password, and each
 * agreement or withdrawal read all of it.
 */
const consentsOf = foldsPerEventStore(consentDecider);

function handleConsentCommand(eventStore: EventStore, userId: string, command: ConsentCommand, context: CommandContext) {
  const stream = streams.user(userId);
  return handleCommand(eventStore, stream, consentDecider, command, context, () => consentsOf(eventStore).current(stream));
}

/** The patient agrees to the current privacy notice in the language they read it in. */
export function giveConsent(eventStore: EventStore, userId: string, input: { notice_version?: string; language?: ConsentLanguage }, context: CommandContext) {
  const notice = consentNotice(input.language ?? 'en');
  return handleConsentCommand(
    eventStore,
    userId,
    { type: 'GiveConsent', data: { notice_version: input.notice_version ?? notice.version, notice: { version: notice.version, language: notice.language, text_hash: notice.text_hash } } },
    context,
  );
}

export function withdrawConsent(eventStore: EventStore, userId: string, noticeVersion: string, context: CommandContext) {
  return handleConsentCommand(eventStore, userId, { type: 'WithdrawConsent', data: { notice_version: noticeVersion } }, context);
}

/**
 * Throws forbidden (403) unless the patient holds a consent to the current privacy notice: before a booking, and before
 * their reports are stored (after a withdrawal nothing new is shared with the doctors who read their records).
 */
export async function requireConsent(eventStore: EventStore, patientId: string, purpose: 'booking' | 'reports'): Promise<void> {
  const { state } = await consentsOf(eventStore).current(streams.user(patientId));
  consentDecider.decide({ type: 'RequireConsent', data: { current_version: CONSENT_NOTICE_VERSION, purpose } }, state);
}

/** Whether the patient holds a consent to the current privacy notice now (a doctor's approval opens their records). */
export async function consentIsCurrent(eventStore: EventStore, patientId: string): Promise<boolean> {
  const { state } = await consentsOf(eventStore).current(streams.user(patientId));
  return holdsConsent(state, CONSENT_NOTICE_VERSION);
}
