import { createHash } from 'node:crypto';
import { conflict, type DomainEventOf } from '@telemed/contracts';
import type { Decider } from '../decider';

/** An e-mail address belongs to one account: the address's own stream is the consistency boundary. */
export type EmailEvent = DomainEventOf<'EmailClaimed'>;
export type EmailState = { user_id: string | null };
export type EmailCommand = { type: 'ClaimEmail'; data: { email: string; user_id: string; previous_owner_exists: boolean } };

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
  initialState: () => ({ user_id: null }),
  evolve: (_state, event) => ({ user_id: event.data.user_id }),
  decide: (command, state) => {
    if (state.user_id === command.data.user_id) return [];
    // A claim whose account was never written (a crash between the two appends) may be taken over.
    if (state.user_id !== null && command.data.previous_owner_exists) throw conflict('A user with this email already exists');
    return [{ type: 'EmailClaimed', data: { email: normalizeEmail(command.data.email), user_id: command.data.user_id } }];
  },
};
