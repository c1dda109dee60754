import { createHash } from 'node:crypto';
import { conflict, ERASED_VALUE, type DomainEventOf } from '@telemed/contracts';
import type { Decider } from '../decider';

/**
 * An e-mail address belongs to one account: the address's own stream is the consistency boundary.
 *
 * What a claim may say, and why (issue 12, the privacy audit): the stream is named by a keyed digest of the address
 * (privateDigest), so whoever holds the server's keys can still test an address and find its claim stream. The claim
 * must therefore not tie that stream to the account once the account is erased, or the address would lead to the
 * erased account's kept records (appointments name their patient in clear). So:
 * - the owner's id is sealed (like the address) under a data key of the claim's own, its subject the claim's random
 *   `claim_id`. Not under the owner's key: every event sealed under one key carries the same key id, so a claim sealed
 *   under the person's key would name them through the key id (and the key store's tombstone keeps subject and key id).
 *   The claim key's tombstone names only the random claim id.
 * - an erasure destroys the claim's key (eraseUser, before the person's own key, while the address still reads): the
 *   claim then reads as `[erased]` and the address is free again, on every path alike (password sign-up, Google
 *   sign-in, an account an institution or the CLI creates). No release event is written: it would need to name
 *   nothing, and would only add a time to the address's stream.
 * - the claim is appended with metadata of its own (the system as actor, a fresh correlation id), not the request's,
 *   which the account's events carry.
 * What still remains is time, not a record: whoever holds the server's keys can still find the address's stream and
 * see that it was claimed (at claimed_at, its position usually just before the account's UserRegistered) and that the
 * claim's key was destroyed (the tombstone's time, the erasure's). Closing that needs the stream to be unfindable once
 * released (its name keyed by a secret the erasure destroys) and tombstones without precise times: not done here.
 * Claims written before this (the owner's id in clear, under the owner's key) are read as they are: their owner's
 * erasure frees the address too (previous_owner 'erased').
 */
export type EmailEvent = DomainEventOf<'EmailClaimed'>;
/** `claim_id`: the latest claim's (null before claims had one): the subject of its data key. */
export type EmailState = { user_id: string | null; claimed_at: string | null; claim_id: string | null };
/**
 * `previous_owner`: the state of the account the address's claim names, if any, read before deciding. `claim_id`: a
 * new random id, the subject of the new claim's data key.
 */
export type EmailCommand = {
  type: 'ClaimEmail';
  data: { email: string; user_id: string; claim_id: string; previous_owner: 'registered' | 'erased' | 'unregistered'; now: Date };
};

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
  initialState: () => ({ user_id: null, claimed_at: null, claim_id: null }),
  // A claim whose key was destroyed (its owner erased) reads as `[erased]`: no one holds the address.
  evolve: (_state, event) => ({
    user_id: event.data.user_id === ERASED_VALUE ? null : event.data.user_id,
    claimed_at: event.data.claimed_at ?? null,
    claim_id: event.data.claim_id ?? null,
  }),
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
    const { user_id, claim_id, now } = command.data;
    return [{ type: 'EmailClaimed', data: { claim_id, email: normalizeEmail(command.data.email), user_id, claimed_at: now.toISOString() } }];
  },
};
