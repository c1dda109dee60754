import assert from 'node:assert/strict';
import { describe, it, mock } from 'node:test';
import { HttpError } from '../http/errors';
import { LoginRateLimiter, addressKey } from './rate-limit';

const options = { perAccountAddress: 2, perAccount: 100, perAddress: 100, windowSeconds: 60, delaySeconds: 1 };

async function outcome(limiter: LoginRateLimiter, account = 'a@x.in', address = '10.0.0.1'): Promise<number | 'through'> {
  try {
    await limiter.attempt(account, address);
    return 'through';
  } catch (error) {
    assert.ok(error instanceof HttpError);
    assert.equal(error.status, 429);
    return Number(error.headers['Retry-After']);
  }
}

describe('LoginRateLimiter', () => {
  it('a pair over its budget waits; after the wait it gets one try, then waits twice as long', async (t) => {
    // The budgets' clock and expiry timers are node's mock timers: the wait passes when the test says, not after a sleep.
    mock.timers.enable({ apis: ['Date', 'setTimeout'], now: Date.parse('2030-01-01T00:00:00Z') });
    t.after(() => mock.timers.reset());
    const limiter = new LoginRateLimiter(options);
    assert.equal(await outcome(limiter), 'through');
    assert.equal(await outcome(limiter), 'through');
    assert.equal(await outcome(limiter), 1);
    mock.timers.tick(999);
    assert.equal(await outcome(limiter), 1, 'still waiting');
    mock.timers.tick(1);
    const parallel = await Promise.all([outcome(limiter), outcome(limiter), outcome(limiter)]);
    assert.equal(parallel.filter((o) => o === 'through').length, 1, JSON.stringify(parallel));
    assert.ok(parallel.includes(2), `the next wait doubles: ${JSON.stringify(parallel)}`);
    assert.equal(await outcome(limiter, 'a@x.in', '10.0.0.2'), 'through', 'another address is not affected');
  });

  it('a success clears the pair and gives back the address and account budgets', async () => {
    const limiter = new LoginRateLimiter({ ...options, perAccount: 3, perAddress: 3 });
    assert.equal(await outcome(limiter), 'through');
    const ok = await limiter.attempt('a@x.in', '10.0.0.1');
    await ok.succeeded();
    assert.equal(await outcome(limiter), 'through');
    assert.equal(await outcome(limiter), 'through', 'the pair starts again from zero');
    assert.equal(await outcome(limiter, 'b@x.in'), 60, 'the address budget (3) is spent by the failures alone');
  });

  it('refusing on one budget charges none of the others', async () => {
    const limiter = new LoginRateLimiter({ ...options, perAccount: 1, perAddress: 2 });
    assert.equal(await outcome(limiter, 'a@x.in'), 'through');
    assert.equal(await outcome(limiter, 'a@x.in'), 60, 'the account budget (1) is spent');
    assert.equal(await outcome(limiter, 'b@x.in'), 'through', 'the refused attempt gave back its address point');
    assert.equal(await outcome(limiter, 'c@x.in'), 60, 'now the address budget (2) is spent');
  });

  it('counts IPv6 clients by their /64 network and IPv4-mapped addresses as IPv4', async () => {
    assert.equal(addressKey('203.0.113.7'), '203.0.113.7');
    assert.equal(addressKey('::ffff:203.0.113.7'), '203.0.113.7');
    assert.equal(addressKey('2001:db8:1:2:aaaa::1'), '2001:db8:1:2::/64');
    assert.equal(addressKey('2001:0db8:0001:0002:ffff:ffff:ffff:ffff'), '2001:db8:1:2::/64');
    assert.equal(addressKey('2001:db8::1'), '2001:db8:0:0::/64');
    assert.equal(addressKey('::1'), '0:0:0:0::/64');
    const limiter = new LoginRateLimiter({ ...options, perAddress: 2 });
    assert.equal(await outcome(limiter, 'a@x.in', '2001:db8:1:2::10'), 'through');
    assert.equal(await outcome(limiter, 'b@x.in', '2001:db8:1:2::20'), 'through');
    assert.equal(await outcome(limiter, 'c@x.in', '2001:db8:1:2:ffff::30'), 60, 'the same /64');
    assert.equal(await outcome(limiter, 'c@x.in', '2001:db8:1:3::30'), 'through', 'another /64');
  });
});
