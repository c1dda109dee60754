import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TokenError, TokenService } from './tokens';

const secret = new Uint8Array(32).fill(3);

describe('TokenService clock', () => {
  it('issues at its clock\'s instant and checks expiry against it, without waiting for the time to pass', async () => {
    let now = new Date('2030-01-01T00:00:00Z');
    const tokens = new TokenService({ secret, issuer: 'telemed', audience: 'telemed-api', ttlSeconds: 60, clock: () => now });
    const token = await tokens.issue({ user_id: 'u1', account_type: 'patient' });
    assert.equal((await tokens.verify(token)).issued_at, Date.parse('2030-01-01T00:00:00Z') / 1000);
    now = new Date('2030-01-01T00:00:59Z');
    assert.equal((await tokens.verify(token)).user_id, 'u1', 'still within its minute');
    now = new Date('2030-01-01T00:01:00Z');
    await assert.rejects(tokens.verify(token), (error) => error instanceof TokenError && error.reason === 'expired');
  });

  it('a socket ticket expires by the same clock', async () => {
    let now = new Date('2030-01-01T00:00:00Z');
    const tokens = new TokenService({ secret, issuer: 'telemed', audience: 'telemed-api', ttlSeconds: 600, clock: () => now });
    const { ticket, expires_at } = await tokens.issueSocketTicket({ user_id: 'u1', account_type: 'doctor' });
    assert.equal(expires_at, '2030-01-01T00:00:30.000Z');
    now = new Date('2030-01-01T00:00:31Z');
    await assert.rejects(tokens.verifySocketCredential(ticket), (error) => error instanceof TokenError && error.reason === 'expired');
  });
});
