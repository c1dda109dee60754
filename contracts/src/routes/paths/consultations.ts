import type { RoutePath } from '../path-types';

/** The consultations area's routes: name, method and path (zod-free; the frontend bundles this). */
export const consultationsPaths = {
  joinConsultation: { method: 'post', path: '/consultations/:appointment_id/join' },
  leaveConsultation: { method: 'post', path: '/consultations/:appointment_id/leave' },
  endConsultation: { method: 'post', path: '/consultations/:appointment_id/end' },
  sendConsultationMessage: { method: 'post', path: '/consultations/:appointment_id/messages' },
  receiveLiveKitWebhook: { method: 'post', path: '/video/livekit/webhook' },
  getConsultation: { method: 'get', path: '/consultations/:appointment_id' },
  listConsultationMessages: { method: 'get', path: '/consultations/:appointment_id/messages' },
} as const satisfies Record<string, RoutePath>;
