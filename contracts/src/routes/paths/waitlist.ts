import type { RoutePath } from '../path-types';

/** The waitlist area's routes (issue 35): name, method and path (zod-free; the frontend bundles this). */
export const waitlistPaths = {
  joinWaitlist: { method: 'post', path: '/doctors/:doctor_id/waitlist' },
  leaveWaitlist: { method: 'delete', path: '/doctors/:doctor_id/waitlist' },
  acceptWaitlistOffer: { method: 'post', path: '/doctors/:doctor_id/waitlist/accept' },
  declineWaitlistOffer: { method: 'post', path: '/doctors/:doctor_id/waitlist/decline' },
  listMyWaitlist: { method: 'get', path: '/waitlist/me' },
} as const satisfies Record<string, RoutePath>;
