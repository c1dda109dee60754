import type { RoutePath } from '../path-types';

/** The schedule area's routes: name, method and path (zod-free; the frontend bundles this). */
export const schedulePaths = {
  setAvailability: { method: 'post', path: '/schedule-v2/set_availability_v2/' },
  listMySchedule: { method: 'get', path: '/schedule-v2/get_appointments_v2/' },
  getSlot: { method: 'get', path: '/slots/:slot_id' },
} as const satisfies Record<string, RoutePath>;
