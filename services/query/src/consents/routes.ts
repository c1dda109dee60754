import { CONSENT_NOTICE_VERSION, consentNotice } from '@telemed/contracts';
import { policies, type ApiRouter, type ReadStore } from '@telemed/platform';
import type { ConsentDoc } from './projection';

/** The privacy notice (public, so it can be read before signing in) and the patient's own consents. */
export function consentQueryRoutes(api: ApiRouter, readStore: ReadStore): void {
  api.implement('getConsentNotice', {
    policy: policies.public,
    handler: async ({ query }) => ({ body: consentNotice(query.language) }),
  });

  api.implement('listMyConsents', {
    policy: policies.roles('patient'),
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
