import { createHash } from 'node:crypto';
import { conflict, type DomainEventOf } from '@telemed/contracts';
import type { Decider } from '../decider';

/** An e-mail address belongs to one account: the address's own stream is the consistency boundary. */
export type EmailEvent = DomainEventOf<'EmailClaimed'>;
export type EmailState = { user_id: string | null; claimed_at: string | null };
/** `previous_owner`: the state of the account the address's claim names, if any, read before deciding. */
export type EmailCommand = { type: 'ClaimEmail'; data: { email: string; user_id: string; previous_owner: 'registered' | 'erased' | 'unregistered'; now: Date } };

/**
 * How long a claim whose account is not written yet counts as a registration in flight rather than one a crash left
 * behind: the account is appended right after the claim, so a minute is far beyond any registration.
 */
export const CLAIM_IN_FLIGHT_MS = 60_000;

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * How claims were named before their names were keyed: a plain digest, which anyone holding the log can test an
 * address against. Still read, so an address claimed then stays claimed; never written again.
 */
export function legacyEmailDigest(email: string): string {
  return createHash('sha256').update(normalizeEmail(email)).digest('hex');
}

export const emailDecider: Decider<EmailState, EmailCommand, EmailEvent> = {
  initialState: () => ({ user_id: null, claimed_at: null }),
  evolve: (_state, event) => ({ user_id: event.data.user_id, claimed_at: event.data.claimed_at ?? null }),
  decide: (command, state) => {
    if (state.user_id === command.data.user_id) return [];
    if (state.user_id !== null) {
      if (command.data.previous_owner === 'registered') throw conflict('A user with this email already exists');
      // An erased account's address is free again. A claim whose account was never written (a crash between the two
      // appends) may be taken over too, but not one whose registration may still be writing it: what was read of its
      // owner may predate this very claim (a retry after a concurrent one).
      const inFlight = state.claimed_at !== null && command.data.now.getTime() - new Date(state.claimed_at).getTime() < CLAIM_IN_FLIGHT_MS;
      if (command.data.previous_owner === 'unregistered' && inFlight) throw conflict('A user with this email already exists');
    }
    return [{ type: 'EmailClaimed', data: { email: normalizeEmail(command.data.email), user_id: command.data.user_id, claimed_at: command.data.now.toISOString() } }];
  },
};
