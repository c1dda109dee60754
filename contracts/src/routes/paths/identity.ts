import type { RoutePath } from '../path-types';

/** The identity area's routes: name, method and path (zod-free; the frontend bundles this). */
export const identityPaths = {
  loginWithPassword: { method: 'post', path: '/auth/support' },
  refreshTokens: { method: 'post', path: '/auth/refresh' },
  createSocketTicket: { method: 'post', path: '/auth/socket-ticket' },
  logout: { method: 'post', path: '/auth/logout' },
  startGoogleLogin: { method: 'get', path: '/auth/google/authorize' },
  finishGoogleLogin: { method: 'post', path: '/auth/google' },
  deactivateUser: { method: 'delete', path: '/admin/users/:user_id' },
} as const satisfies Record<string, RoutePath>;
