import type { RoutePath } from '../path-types';

/** The institutions area's routes: name, method and path (zod-free; the frontend bundles this). */
export const institutionsPaths = {
  createInstitution: { method: 'post', path: '/institutions/' },
  disbandInstitution: { method: 'delete', path: '/institutions/:id' },
  removeInstitutionStaffMember: { method: 'delete', path: '/institutions/:id/staff/:user_id' },
  addInstitutionDoctor: { method: 'post', path: '/institutions/:id/doctors' },
  acceptInvitation: { method: 'post', path: '/institutions/:id/invitations/:invitation_id/accept' },
  declineInvitation: { method: 'post', path: '/institutions/:id/invitations/:invitation_id/decline' },
  revokeInvitation: { method: 'delete', path: '/institutions/:id/invitations/:invitation_id' },
  removeInstitutionDoctor: { method: 'delete', path: '/institutions/:id/doctors/:doctor_id' },
  listMyInvitations: { method: 'get', path: '/institutions/invitations' },
  getMyInvitation: { method: 'get', path: '/institutions/invitations/:invitation_id' },
  listInstitutions: { method: 'get', path: '/institutions/' },
  checkAdminStatus: { method: 'get', path: '/institutions/check-admin-status' },
  getMyInstitution: { method: 'get', path: '/institutions/my-institution' },
  listInstitutionStaff: { method: 'get', path: '/institutions/:id/staff' },
  listInstitutionAppointments: { method: 'get', path: '/institutions/:id/appointments' },
  setInstitutionBookingRules: { method: 'put', path: '/institutions/:id/booking-rules' },
  getInstitutionBookingRules: { method: 'get', path: '/institutions/:id/booking-rules' },
} as const satisfies Record<string, RoutePath>;
