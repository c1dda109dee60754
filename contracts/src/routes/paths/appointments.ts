import type { RoutePath } from '../path-types';

/** The appointments area's routes: name, method and path (zod-free; the frontend bundles this). */
export const appointmentsPaths = {
  requestAppointment: { method: 'post', path: '/appointments' },
  approveAppointment: { method: 'post', path: '/appointments/:id/approve' },
  rejectAppointment: { method: 'post', path: '/appointments/:id/reject' },
  cancelAppointment: { method: 'post', path: '/appointments/:id/cancel' },
  rescheduleAppointment: { method: 'post', path: '/appointments/:id/reschedule' },
  proposeTimes: { method: 'post', path: '/appointments/:id/propose-times' },
  acceptProposedTime: { method: 'post', path: '/appointments/:id/proposal/accept' },
  declineProposedTimes: { method: 'post', path: '/appointments/:id/proposal/decline' },
  markPatientAbsent: { method: 'post', path: '/appointments/:id/no-show' },
  listMyAppointments: { method: 'get', path: '/appointments/me' },
  listPendingAppointments: { method: 'get', path: '/appointments/pending' },
  getAppointmentHistory: { method: 'get', path: '/appointments/:id/history' },
} as const satisfies Record<string, RoutePath>;
