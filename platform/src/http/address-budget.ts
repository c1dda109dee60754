import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { addressKey } from '../identity/rate-limit';

/**
 * A budget of actions per client address (an IPv6 address counts by its /64) in a window, for writes anyone may make
 * without signing in (a public post's view is an event): past the budget the action is skipped, so nobody can grow the
 * log, or a count, without bound from one address. Kept in this process's memory.
 */
export class AddressBudget {
  private readonly budget: KeyBudget;

  constructor(options: { points: number; windowSeconds: number; name: string }) {
    this.budget = new KeyBudget(options);
  }

  /** Takes one action from the address's budget; false when it is spent. */
  take(address: string): Promise<boolean> {
    return this.budget.take(addressKey(address));
  }
}

/** A budget of actions per key (a signed-in person's id) in a window, kept in this process's memory. */
export class KeyBudget {
  private readonly limiter: RateLimiterMemory;

  constructor(options: { points: number; windowSeconds: number; name: string }) {
    this.limiter = new RateLimiterMemory({ points: options.points, duration: options.windowSeconds, keyPrefix: options.name });
  }

  /** Takes one action from the key's budget; false when it is spent. */
  async take(key: string): Promise<boolean> {
    try {
      await this.limiter.consume(key);
      return true;
    } catch (error) {
      if (error instanceof RateLimiterRes) return false;
      throw error;
    }
  }
}
