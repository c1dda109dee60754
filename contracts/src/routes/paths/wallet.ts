import type { RoutePath } from '../path-types';

/** The wallet area's routes (issue 36): name, method and path (zod-free; the frontend bundles this). */
export const walletPaths = {
  getMyWallet: { method: 'get', path: '/wallet/me' },
  listMyWalletEntries: { method: 'get', path: '/wallet/me/entries' },
} as const satisfies Record<string, RoutePath>;
