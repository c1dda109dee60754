import type { RoutePath } from '../path-types';

/** The consents area's routes: name, method and path (zod-free; the frontend bundles this). */
export const consentsPaths = {
  getConsentNotice: { method: 'get', path: '/consents/notice' },
  listMyConsents: { method: 'get', path: '/users/me/consents' },
  giveConsent: { method: 'post', path: '/users/me/consents' },
  withdrawConsent: { method: 'delete', path: '/users/me/consents/:notice_version' },
} as const satisfies Record<string, RoutePath>;
