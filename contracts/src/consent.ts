import { z } from './zod';
import { CONSENT_LANGUAGES } from './consent-notice';

/** Wire shapes of the consent routes. */
const language = z.enum(CONSENT_LANGUAGES);
const noticeVersion = z.string().min(1).max(32).regex(/^[A-Za-z0-9._-]+$/, 'Expected a notice version such as 2026-11-v1');

export const consentNoticeQuerySchema = z.object({ language: language.default('en') });
export const consentNoticeResponseSchema = z
  .object({ version: z.string(), language, title: z.string(), text: z.string(), text_hash: z.string() })
  .openapi('ConsentNotice');

export const giveConsentRequestSchema = z.strictObject({ notice_version: noticeVersion, language: language.default('en') }).openapi('GiveConsentRequest');
export const consentVersionParamsSchema = z.object({ notice_version: noticeVersion });

export const consentSchema = z
  .object({
    notice_version: z.string(),
    language,
    text_hash: z.string(),
    status: z.enum(['active', 'withdrawn']),
    given_at: z.string(),
    withdrawn_at: z.string().nullable(),
    /** Whether this is the version a booking needs now. */
    current: z.boolean(),
  })
  .openapi('Consent');
export const consentListResponseSchema = z
  .object({ current_notice_version: z.string(), has_current_consent: z.boolean(), consents: z.array(consentSchema) })
  .openapi('ConsentList');

export const consentCommandResponseSchema = z
  .object({ notice_version: z.string(), status: z.enum(['active', 'withdrawn']) })
  .openapi('ConsentCommandResponse');

export type ConsentView = z.infer<typeof consentSchema>;
export type ConsentList = z.infer<typeof consentListResponseSchema>;
