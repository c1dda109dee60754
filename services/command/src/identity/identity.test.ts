import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { deciderSpec } from '../decider-spec';
import { emailDecider, legacyEmailDigest } from './email';
import { sessionDecider, type SessionEvent } from './session';

describe('email decider', () => {
  const spec = deciderSpec(emailDecider);
  const now = new Date('2030-01-02T10:00:00Z');
  const claim = (user_id: string, previous_owner: 'registered' | 'erased' | 'unregistered' = 'registered', at = now) =>
    ({ type: 'ClaimEmail', data: { email: ' Asha@Example.IN ', user_id, claim_id: `claim-of-${user_id}`, previous_owner, now: at } }) as const;
  const claimed = (user_id: string, claimed_at?: string) =>
    ({ type: 'EmailClaimed', data: { email: 'asha@example.in', user_id, ...(claimed_at ? { claimed_at } : {}) } }) as const;
  /** A claim as written now: under the claim's own key (its claim_id). */
  const keyedClaim = (user_id: string, claimed_at: string) =>
    ({ type: 'EmailClaimed', data: { claim_id: `claim-of-${user_id}`, email: 'asha@example.in', user_id, claimed_at } }) as const;
  it('claims a free address, normalised, with the time of the claim', () => spec([]).when(claim('u-1')).then([keyedClaim('u-1', now.toISOString())]));
  it('refuses an address another account holds', () => spec([claimed('u-1', '2030-01-01T00:00:00Z')]).when(claim('u-2')).thenThrows('conflict'));
  it('takes over a claim whose account was never written (a crash between the two appends)', () => {
    spec([claimed('u-1', '2030-01-02T09:58:00Z')]).when(claim('u-2', 'unregistered')).then([keyedClaim('u-2', now.toISOString())]);
    spec([claimed('u-1')]).when(claim('u-2', 'unregistered')).then([keyedClaim('u-2', now.toISOString())]);
  });
  it('refuses while the claim is recent: its registration may still be writing the account (a retry after a concurrent claim)', () =>
    spec([claimed('u-1', new Date(now.getTime() - 2000).toISOString())]).when(claim('u-2', 'unregistered')).thenThrows('conflict'));
  it("gives an erased account's address to a new account at once", () =>
    spec([claimed('u-1', new Date(now.getTime() - 2000).toISOString())]).when(claim('u-2', 'erased')).then([keyedClaim('u-2', now.toISOString())]));
  it("frees an address whose claim's key was destroyed (its owner erased): the claim reads as [erased], even a recent one", () =>
    spec([keyedClaim('[erased]', new Date(now.getTime() - 2000).toISOString())]).when(claim('u-2', 'unregistered')).then([keyedClaim('u-2', now.toISOString())]));
  it('digests case- and space-insensitively', () => assert.equal(legacyEmailDigest(' A@B.in'), legacyEmailDigest('a@b.IN')));
});

describe('session decider', () => {
  const spec = deciderSpec(sessionDecider);
  const started: SessionEvent = {
    type: 'SessionStarted',
    data: { session_id: 's-1', user_id: 'u-1', method: 'password', refresh_token_hash: 'h1', expires_at: '2030-01-31T00:00:00Z' },
  };
  const refreshed: SessionEvent = { type: 'SessionRefreshed', data: { session_id: 's-1', refresh_token_hash: 'h2', expires_at: '2030-02-01T00:00:00Z' } };
  const now = new Date('2030-01-02T00:00:00Z');
  const refresh = (presented_hash: string, at = now) =>
    ({ type: 'RefreshSession', data: { session_id: 's-1', presented_hash, next_hash: 'h2', expires_at: '2030-02-01T00:00:00Z', now: at } }) as const;

  it('rotates the refresh token', () => spec([started]).when(refresh('h1')).then([refreshed]));
  it('ends the session when an old refresh token is reused', () =>
    spec([started, refreshed])
      .when(refresh('h1'))
      .then([{ type: 'SessionEnded', data: { session_id: 's-1', user_id: 'u-1', reason: 'refresh_token_reused' } }]));
  it('refuses an unknown token', () => spec([started]).when(refresh('nope')).thenThrows('not_found'));
  it('ends an expired session instead of refreshing', () =>
    spec([started])
      .when(refresh('h1', new Date('2030-02-01T00:00:00Z')))
      .then([{ type: 'SessionEnded', data: { session_id: 's-1', user_id: 'u-1', reason: 'expired' } }]));
  it('logs out its own session only', () => {
    spec([started]).when({ type: 'EndSession', data: { session_id: 's-1', actor_id: 'u-2' } }).thenThrows('not_found');
    spec([started])
      .when({ type: 'EndSession', data: { session_id: 's-1', actor_id: 'u-1' } })
      .then([{ type: 'SessionEnded', data: { session_id: 's-1', user_id: 'u-1', reason: 'logout' } }]);
  });
  it('refuses to refresh an ended session', () =>
    spec([started, { type: 'SessionEnded', data: { session_id: 's-1', user_id: 'u-1', reason: 'logout' } }]).when(refresh('h1')).thenThrows('conflict'));
});
