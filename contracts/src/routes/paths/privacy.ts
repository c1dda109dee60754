import type { RoutePath } from '../path-types';

/** The privacy area's routes: name, method and path (zod-free; the frontend bundles this). */
export const privacyPaths = {
  getMyAccessLog: { method: 'get', path: '/users/me/access-log' },
  exportMyData: { method: 'get', path: '/users/me/export' },
  eraseMe: { method: 'post', path: '/users/me/erasure' },
  eraseUser: { method: 'post', path: '/admin/users/:user_id/erasure' },
} as const satisfies Record<string, RoutePath>;
