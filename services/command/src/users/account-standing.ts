import { streams, type AccountType, type DomainEventOf } from '@telemed/contracts';
import type { EventStore } from '@telemed/platform';
import { foldsPerEventStore } from '../stream-folds';

/** The user stream's events that decide whether the account may act. */
export type StandingEvent = DomainEventOf<'UserRegistered' | 'UserDeactivated' | 'UserReactivated' | 'PersonalDataErased'>;

/** Whether an account exists and may act now: no personal data, so a fold of it may be kept (see StreamFolds). */
export type AccountStanding = {
  user_id: string;
  account_type: AccountType;
  active: boolean;
  /** The log position of the account's last deactivation: a session started before it is not refreshed after it. */
  deactivated_at_position?: number;
} | null;

export function evolveStanding(state: AccountStanding, event: { type: string; data: unknown; position?: number }): AccountStanding {
  const known = event as StandingEvent;
  switch (known.type) {
    case 'UserRegistered':
      return { user_id: known.data.user_id, account_type: known.data.account_type, active: true };
    case 'UserDeactivated':
      // A stored event has its position (the kept folds read stored events); one just decided has none yet.
      return state && { ...state, active: false, ...(event.position !== undefined && { deactivated_at_position: event.position }) };
    case 'PersonalDataErased': // an erased account is gone for good: its key is destroyed
      return state && { ...state, active: false };
    case 'UserReactivated':
      return state && { ...state, active: true };
    default:
      return state; // the user stream's other events
  }
}

export const accountStandingFold = { initialState: (): AccountStanding => null, evolve: evolveStanding };

/**
 * Each event store's kept folds of accounts' standing (StreamFolds): asked at every token refresh and before each page
 * of a closed account's appointments, while the user stream grows with every profile edit, subscription and consent.
 */
const accountStandingsOf = foldsPerEventStore(accountStandingFold);

/** The account's standing now, from its own stream's events since the last look. */
export async function accountStanding(eventStore: EventStore, userId: string): Promise<AccountStanding> {
  return (await accountStandingsOf(eventStore).current(streams.user(userId))).state;
}

/**
 * Whether an account was ever registered, is registered or erased, and its type: what finding an account by its
 * address and checking what it may become (a doctor's staff role) ask, without its personal data.
 */
export type AccountStatus = { status: 'unregistered' } | { status: 'registered' | 'erased'; account_type: AccountType };

export const accountStatusFold = {
  initialState: (): AccountStatus => ({ status: 'unregistered' }),
  evolve: (state: AccountStatus, event: { type: string; data: unknown }): AccountStatus => {
    const known = event as StandingEvent;
    // As the user's decider: registered once; an erasure ends a registered account for good.
    if (known.type === 'UserRegistered' && state.status === 'unregistered') return { status: 'registered', account_type: known.data.account_type };
    if (known.type === 'PersonalDataErased' && state.status === 'registered') return { ...state, status: 'erased' };
    return state;
  },
};

/**
 * Each event store's kept folds of accounts' status (StreamFolds): a user stream gains an event with every profile
 * edit, subscription, consent and password, and a look up by address read all of them each time; a look now reads the
 * events since the last one.
 */
const accountStatusesOf = foldsPerEventStore(accountStatusFold);

/** The account's status now, from its own stream's events since the last look. */
export async function accountStatus(eventStore: EventStore, userId: string): Promise<AccountStatus> {
  return (await accountStatusesOf(eventStore).current(streams.user(userId))).state;
}
