import {
  API_TEXTS,
  CONSENT_TEXTS,
  conflict,
  forbidden,
  notFound,
  type ConsentLanguage,
  type DomainEventOf,
} from '@telemed/contracts';
import type { Decider } from '../decider';
import { evolveStanding, type AccountStanding, type StandingEvent } from '../users/account-standing';

/**
 * A patient's consents to the privacy notice, on their own user stream (`user-<id>`), so that agreeing, withdrawing
 * and the booking check see the account's own history with no read model in between.
 */
export type ConsentEvent = DomainEventOf<'ConsentGiven' | 'ConsentWithdrawn'>;
/** What this decider folds; the user stream's other events pass by. */
type FoldedEvent = ConsentEvent | StandingEvent;

export interface ConsentRecord {
  language: ConsentLanguage;
  text_hash: string;
  withdrawn: boolean;
}

export interface ConsentState {
  account: AccountStanding;
  /** By notice version. */
  consents: ReadonlyMap<string, ConsentRecord>;
}

/** The notice as it stands now (version, language and hash of the text shown). */
export interface CurrentNotice {
  version: string;
  language: ConsentLanguage;
  text_hash: string;
}

export type ConsentCommand =
  | { type: 'GiveConsent'; data: { notice_version: string; notice: CurrentNotice } }
  | { type: 'WithdrawConsent'; data: { notice_version: string } }
  /** Books nothing: answers forbidden unless the patient holds a consent to the current notice. */
  /** Before a booking, or before a patient's reports are stored (both are processing the notice covers). */
  | { type: 'RequireConsent'; data: { current_version: string; purpose?: 'booking' | 'reports' } };

export function evolveConsent(state: ConsentState, event: FoldedEvent): ConsentState {
  switch (event.type) {
    case 'UserRegistered':
    case 'UserDeactivated':
    case 'UserReactivated':
    case 'PersonalDataErased': {
      const account = evolveStanding(state.account, event);
      return account === state.account ? state : { ...state, account };
    }
    case 'ConsentGiven': {
      const consents = new Map(state.consents);
      consents.set(event.data.notice_version, { language: event.data.language, text_hash: event.data.text_hash, withdrawn: false });
      return { ...state, consents };
    }
    case 'ConsentWithdrawn': {
      const given = state.consents.get(event.data.notice_version);
      if (!given) return state;
      const consents = new Map(state.consents);
      consents.set(event.data.notice_version, { ...given, withdrawn: true });
      return { ...state, consents };
    }
    default:
      return state; // the user stream's other events
  }
}

function activeAccount(state: ConsentState) {
  if (!state.account?.active) throw notFound(API_TEXTS.userNotFound);
  return state.account;
}

/** Whether the account is active and holds a consent to this version of the notice, not withdrawn. */
export function holdsConsent(state: ConsentState, version: string): boolean {
  const held = state.account?.active ? state.consents.get(version) : undefined;
  return held !== undefined && !held.withdrawn;
}

export function decideConsent(command: ConsentCommand, state: ConsentState): ConsentEvent[] {
  switch (command.type) {
    case 'GiveConsent': {
      const account = activeAccount(state);
      if (account.account_type !== 'patient') throw forbidden(CONSENT_TEXTS.patientsOnly);
      const { notice } = command.data;
      if (command.data.notice_version !== notice.version) throw conflict(CONSENT_TEXTS.notCurrentNotice);
      const held = state.consents.get(notice.version);
      if (held && !held.withdrawn) return [];
      return [{ type: 'ConsentGiven', data: { user_id: account.user_id, notice_version: notice.version, language: notice.language, text_hash: notice.text_hash } }];
    }
    case 'WithdrawConsent': {
      const account = activeAccount(state);
      const held = state.consents.get(command.data.notice_version);
      if (!held) throw notFound(CONSENT_TEXTS.noSuchConsent);
      if (held.withdrawn) return [];
      return [{ type: 'ConsentWithdrawn', data: { user_id: account.user_id, notice_version: command.data.notice_version, text_hash: held.text_hash } }];
    }
    case 'RequireConsent': {
      if (!holdsConsent(state, command.data.current_version)) throw forbidden(command.data.purpose === 'reports' ? CONSENT_TEXTS.consentNeededForReports : CONSENT_TEXTS.consentNeeded);
      return [];
    }
  }
}

export const consentDecider: Decider<ConsentState, ConsentCommand, FoldedEvent> = {
  initialState: () => ({ account: null, consents: new Map() }),
  evolve: evolveConsent,
  decide: decideConsent,
};
