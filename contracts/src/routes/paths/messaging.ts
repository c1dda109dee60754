import type { RoutePath } from '../path-types';

/** Messages outside the browser and sign-in by phone (issue 34): name, method and path (zod-free; the frontend bundles this). */
export const messagingPaths = {
  startPhoneSignIn: { method: 'post', path: '/auth/phone/start' },
  verifyPhoneSignIn: { method: 'post', path: '/auth/phone/verify' },
  startPhoneVerification: { method: 'post', path: '/users/me/phone/start' },
  verifyPhone: { method: 'post', path: '/users/me/phone/verify' },
  getMessagingPreferences: { method: 'get', path: '/users/me/messaging' },
  setMessagingPreferences: { method: 'put', path: '/users/me/messaging' },
  listDevOutbox: { method: 'get', path: '/dev/outbox' },
  receiveSmsStatus: { method: 'post', path: '/messaging/sms/status' },
  receiveSmsReply: { method: 'get', path: '/messaging/sms/inbound' },
  receiveSmsReplyForm: { method: 'post', path: '/messaging/sms/inbound' },
  verifyWhatsAppWebhook: { method: 'get', path: '/messaging/whatsapp/webhook' },
  receiveWhatsAppWebhook: { method: 'post', path: '/messaging/whatsapp/webhook' },
  listMessages: { method: 'get', path: '/admin/messages' },
  resendMessage: { method: 'post', path: '/admin/messages/:message_id/resend' },
} as const satisfies Record<string, RoutePath>;
