import {
  consentCommandResponseSchema,
  consentListResponseSchema,
  consentNoticeQuerySchema,
  consentNoticeResponseSchema,
  consentVersionParamsSchema,
  giveConsentRequestSchema,
} from '../consent';
import { defineRoutes } from './define';

/** The consents area's routes: schemas and answers (their names, methods and paths are in paths/consents.ts). */
export const consentsRoutes = defineRoutes({
  getConsentNotice: {
    summary: 'The current privacy notice a patient agrees to before booking (English or Hindi)',
    tags: ['consents'],
    query: consentNoticeQuerySchema,
    response: consentNoticeResponseSchema,
  },
  listMyConsents: {
    summary: 'My consents to the privacy notice, and whether I hold one to the current version',
    tags: ['consents'],
    response: consentListResponseSchema,
  },
  giveConsent: {
    summary: 'Agree to the current privacy notice (needed before booking)',
    tags: ['consents'],
    body: giveConsentRequestSchema,
    response: consentCommandResponseSchema,
    successStatus: 201,
    errors: [404, 409],
  },
  withdrawConsent: {
    summary: 'Withdraw my consent to a version of the privacy notice (no new bookings until I agree again)',
    tags: ['consents'],
    params: consentVersionParamsSchema,
    response: consentCommandResponseSchema,
    errors: [404],
  },
});
