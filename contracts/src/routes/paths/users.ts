import type { RoutePath } from '../path-types';

/** The users area's routes: name, method and path (zod-free; the frontend bundles this). */
export const usersPaths = {
  getMe: { method: 'get', path: '/users/me' },
  updateMe: { method: 'put', path: '/users/me' },
  subscribeToDoctor: { method: 'post', path: '/users/subscribe' },
  listDoctors: { method: 'get', path: '/doctors/' },
  listMyDoctors: { method: 'get', path: '/doctors/me' },
  getDoctorAvailableSlots: { method: 'get', path: '/doctors/:doctor_id/available-slots' },
  getPublicDoctor: { method: 'get', path: '/public/doctors/:doctor_id' },
  setMyBookingRules: { method: 'put', path: '/doctors/me/booking-rules' },
  clearMyBookingRules: { method: 'delete', path: '/doctors/me/booking-rules' },
  getDoctorBookingRules: { method: 'get', path: '/doctors/:doctor_id/booking-rules' },
} as const satisfies Record<string, RoutePath>;
