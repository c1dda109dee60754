import { CONSENT_NOTICE_VERSION, consentListResponseSchema, consentNotice, consentNoticeQuerySchema, consentNoticeResponseSchema } from '@telemed/contracts';
import { policies, type ApiRouter, type ReadStore } from '@telemed/platform';
import type { ConsentDoc } from './projection';

/** The privacy notice (public, so it can be read before signing in) and the patient's own consents. */
export function consentQueryRoutes(api: ApiRouter, readStore: ReadStore): void {
  api.route({
    method: 'get',
    path: '/consents/notice',
    summary: 'The current privacy notice a patient agrees to before booking (English or Hindi)',
    tags: ['consents'],
    policy: policies.public,
    query: consentNoticeQuerySchema,
    response: consentNoticeResponseSchema,
    handler: async ({ query }) => ({ body: consentNotice(query.language) }),
  });

  api.route({
    method: 'get',
    path: '/users/me/consents',
    summary: 'My consents to the privacy notice, and whether I hold one to the current version',
    tags: ['consents'],
    policy: policies.roles('patient'),
    response: consentListResponseSchema,
    handler: async ({ auth }) => {
      const docs = await readStore.collection<ConsentDoc>('consents').find({ user_id: auth.user_id }, { sort: { given_at: -1 } });
      const consents = docs.map((d) => ({
        notice_version: d.notice_version,
        language: d.language,
        text_hash: d.text_hash,
        status: d.withdrawn_at ? ('withdrawn' as const) : ('active' as const),
        given_at: d.given_at,
        withdrawn_at: d.withdrawn_at,
        current: d.notice_version === CONSENT_NOTICE_VERSION,
      }));
      return {
        body: {
          current_notice_version: CONSENT_NOTICE_VERSION,
          has_current_consent: consents.some((c) => c.current && c.status === 'active'),
          consents,
        },
      };
    },
  });
}
