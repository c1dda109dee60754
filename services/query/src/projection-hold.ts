import { existsSync } from 'node:fs';

const PREFIX = 'hold-projections-while-file:';

/**
 * Test-only (FAULT_INJECTION, refused in production): `hold-projections-while-file:<path>` holds the live projections
 * back while that file exists, as a heavy load would, so a browser test can see how reads behave when the read side
 * lags behind a write by more than the read-your-writes wait.
 */
export function projectionHoldFromConfig(faultInjection: string | undefined): (() => Promise<void>) | undefined {
  if (!faultInjection?.startsWith(PREFIX)) return undefined;
  const path = faultInjection.slice(PREFIX.length);
  return async () => {
    while (existsSync(path)) await new Promise((resolve) => setTimeout(resolve, 50));
  };
}
