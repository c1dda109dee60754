import { isIPv6 } from 'node:net';
import { RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { HttpError } from '../http/errors';

export interface LoginRateLimitOptions {
  /** Failed sign-ins for one account from one address before that pair waits; each later failure doubles the wait. */
  perAccountAddress: number;
  /** Failed sign-ins for one account from every address in the window (looser); addresses the account signed in from are exempt. */
  perAccount: number;
  /** Attempts from one address, for any account, in the window. */
  perAddress: number;
  windowSeconds: number;
  /** The first wait of a pair over its budget; it doubles with every further failure, up to the window. */
  delaySeconds: number;
}

/** How long a pair's past waits keep doubling the next one, and how long a successful address stays known. */
const STRIKE_MEMORY_SECONDS = 24 * 3600;
// (Memory records expire by timer: keep it under setTimeout's limit of 24.8 days.)
const KNOWN_ADDRESS_SECONDS = 14 * 24 * 3600;

/** One sign-in attempt that got through the limits; report a success so its budget is given back. */
export interface LoginAttempt {
  succeeded(): Promise<void>;
}

/**
 * Slows password guessing without letting a stranger lock the owner out. Every budget is consumed atomically
 * *before* the password is checked (so parallel guesses cannot all get through), and a success gives it back:
 *
 * - per (account, address) pair: `perAccountAddress` consecutive failures, then a wait of `delaySeconds` that doubles
 *   with each further failure (one try between waits), up to the window; a success clears it;
 * - per account from every address: `perAccount` failures in the window; an address the account has signed in from
 *   in the last 14 days is exempt, so a distributed guesser cannot lock its owner out;
 * - per address across accounts: `perAddress` attempts in the window.
 *
 * Over a budget answers 429 with Retry-After. The budgets live in this process's memory.
 */
export class LoginRateLimiter {
  private readonly pairs: RateLimiterAbstract;
  private readonly strikes: RateLimiterAbstract;
  private readonly accounts: RateLimiterAbstract;
  private readonly addresses: RateLimiterAbstract;
  private readonly known: RateLimiterAbstract;

  constructor(private readonly options: LoginRateLimitOptions) {
    const window = options.windowSeconds;
    this.pairs = new RateLimiterMemory({ points: options.perAccountAddress, duration: window, keyPrefix: 'login-pair' });
    this.strikes = new RateLimiterMemory({ points: Number.MAX_SAFE_INTEGER, duration: STRIKE_MEMORY_SECONDS, keyPrefix: 'login-strike' });
    this.accounts = new RateLimiterMemory({ points: options.perAccount, duration: window, keyPrefix: 'login-account' });
    this.addresses = new RateLimiterMemory({ points: options.perAddress, duration: window, keyPrefix: 'login-address' });
    this.known = new RateLimiterMemory({ points: 1, duration: KNOWN_ADDRESS_SECONDS, keyPrefix: 'login-known' });
  }

  /** Charges every budget for one attempt, or refuses with 429 (charging nothing) when one is spent. */
  async attempt(account: string, clientAddress: string): Promise<LoginAttempt> {
    const address = addressKey(clientAddress);
    const pair = JSON.stringify([account, address]);
    // After a wait, a pair gets one try: it costs the whole budget, so a second one in parallel is refused.
    const pairCost = (await this.strikes.get(pair)) ? this.options.perAccountAddress : 1;
    try {
      await this.pairs.consume(pair, pairCost);
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw error;
      throw await this.refusedPair(pair, pairCost, error);
    }
    const charged: Array<() => Promise<unknown>> = [() => this.pairs.reward(pair, pairCost)];
    try {
      await this.addresses.consume(address);
      charged.push(() => this.addresses.reward(address));
      const known = (await this.known.get(pair)) !== null;
      if (!known) {
        await this.accounts.consume(account);
        charged.push(() => this.accounts.reward(account));
      }
    } catch (error) {
      for (const refund of charged) await refund();
      throw error instanceof RateLimiterRes ? tooMany(error.msBeforeNext) : error;
    }
    return {
      succeeded: async () => {
        for (const refund of charged.slice(1)) await refund();
        await this.pairs.delete(pair);
        await this.strikes.delete(pair);
        await this.known.set(pair, 1, KNOWN_ADDRESS_SECONDS);
      },
    };
  }

  /** The first refusal of a pair starts its wait, twice as long as its previous one. */
  private async refusedPair(pair: string, cost: number, state: RateLimiterRes): Promise<HttpError> {
    const firstOverBudget = state.consumedPoints <= this.options.perAccountAddress + cost;
    if (!firstOverBudget) return tooMany(state.msBeforeNext);
    const strike = await this.strikes.penalty(pair, 1);
    const seconds = Math.min(this.options.delaySeconds * 2 ** (strike.consumedPoints - 1), this.options.windowSeconds);
    await this.pairs.block(pair, seconds);
    return tooMany(seconds * 1000);
  }
}

/**
 * The address a budget is kept for: IPv4 as is (also when written IPv4-mapped), IPv6 by its /64 network, since one
 * subscriber usually holds a whole /64 and could otherwise rotate through it.
 */
export function addressKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!isIPv6(address)) return address;
  const [head = '', tail = ''] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = address.includes('::') ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups.slice(0, 4).map((g) => parseInt(g, 16).toString(16)).join(':')}::/64`;
}

function tooMany(msBeforeNext: number): HttpError {
  const seconds = Math.max(1, Math.ceil(msBeforeNext / 1000));
  return new HttpError(429, 'Too many sign-in attempts. Please try again later.', { 'Retry-After': String(seconds) });
}
