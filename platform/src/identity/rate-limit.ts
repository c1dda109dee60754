import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { HttpError } from '../http/errors';

export interface LoginRateLimitOptions {
  /** Failed attempts allowed per account in the window. */
  perAccount: number;
  /** Attempts allowed per client address in the window. */
  perAddress: number;
  windowSeconds: number;
}

/**
 * Slows password guessing: failures per account and attempts per address, each with its own budget. Over budget
 * answers 429 with Retry-After; a success clears the account's failures.
 */
export class LoginRateLimiter {
  private readonly accounts: RateLimiterMemory;
  private readonly addresses: RateLimiterMemory;

  constructor(options: LoginRateLimitOptions) {
    this.accounts = new RateLimiterMemory({ points: options.perAccount, duration: options.windowSeconds, keyPrefix: 'login-account' });
    this.addresses = new RateLimiterMemory({ points: options.perAddress, duration: options.windowSeconds, keyPrefix: 'login-address' });
  }

  /** Counts an attempt from the address and refuses when either budget is already spent. */
  async before(account: string, address: string): Promise<void> {
    const accountState = await this.accounts.get(account);
    if (accountState && accountState.remainingPoints <= 0) throw tooMany(accountState);
    try {
      await this.addresses.consume(address);
    } catch (error) {
      if (error instanceof RateLimiterRes) throw tooMany(error);
      throw error;
    }
  }

  async failed(account: string): Promise<void> {
    await this.accounts.penalty(account, 1);
  }

  async succeeded(account: string): Promise<void> {
    await this.accounts.delete(account);
  }
}

function tooMany(state: RateLimiterRes): HttpError {
  const seconds = Math.max(1, Math.ceil(state.msBeforeNext / 1000));
  return new HttpError(429, 'Too many sign-in attempts. Please try again later.', { 'Retry-After': String(seconds) });
}
