import { streams, type AccountType, type DomainEventOf } from '@telemed/contracts';
import type { EventStore } from '@telemed/platform';
import { readStream } from '../decider';

/** The user stream's events that decide whether the account may act. */
export type StandingEvent = DomainEventOf<'UserRegistered' | 'UserDeactivated' | 'UserReactivated' | 'PersonalDataErased'>;

/** Whether an account exists and may act now: no personal data, so a fold of it may be kept (see StreamFolds). */
export type AccountStanding = { user_id: string; account_type: AccountType; active: boolean } | null;

export function evolveStanding(state: AccountStanding, event: { type: string; data: unknown }): AccountStanding {
  const known = event as StandingEvent;
  switch (known.type) {
    case 'UserRegistered':
      return { user_id: known.data.user_id, account_type: known.data.account_type, active: true };
    case 'UserDeactivated':
    case 'PersonalDataErased': // an erased account is gone for good: its key is destroyed
      return state && { ...state, active: false };
    case 'UserReactivated':
      return state && { ...state, active: true };
    default:
      return state; // the user stream's other events
  }
}

export const accountStandingFold = { initialState: (): AccountStanding => null, evolve: evolveStanding };

/** The account's standing now, from its own stream. */
export async function accountStanding(eventStore: EventStore, userId: string): Promise<AccountStanding> {
  return (await readStream(eventStore, streams.user(userId), accountStandingFold)).state;
}
