import { consentNotice, streams, type ConsentLanguage } from '@telemed/contracts';
import type { EventStore } from '@telemed/platform';
import { handleCommand, type CommandContext } from '../decider';
import { consentDecider } from './consent';

/** The patient agrees to the current privacy notice in the language they read it in. */
export function giveConsent(eventStore: EventStore, userId: string, input: { notice_version?: string; language?: ConsentLanguage }, context: CommandContext) {
  const notice = consentNotice(input.language ?? 'en');
  return handleCommand(
    eventStore,
    streams.user(userId),
    consentDecider,
    { type: 'GiveConsent', data: { notice_version: input.notice_version ?? notice.version, notice: { version: notice.version, language: notice.language, text_hash: notice.text_hash } } },
    context,
  );
}

export function withdrawConsent(eventStore: EventStore, userId: string, noticeVersion: string, context: CommandContext) {
  return handleCommand(eventStore, streams.user(userId), consentDecider, { type: 'WithdrawConsent', data: { notice_version: noticeVersion } }, context);
}
