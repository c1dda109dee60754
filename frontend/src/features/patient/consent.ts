import { useQuery } from '@tanstack/react-query';
import type { ApiRoutes, ConsentLanguage } from '@telemed/contracts';
import { call } from '../../lib/client';

export const consentsKey = ['users', 'me', 'consents'] as const;

/** The patient's consents; `needed` is true only when the server says there is no current one (unknown counts as not needed). */
export function useConsents(enabled = true) {
  const query = useQuery({ queryKey: consentsKey, enabled, queryFn: () => call('listMyConsents') });
  return { ...query, needed: query.data ? !query.data.has_current_consent : false };
}

export function useConsentNotice(language: ConsentLanguage, enabled: boolean) {
  return useQuery({
    queryKey: ['consent-notice', language],
    enabled,
    staleTime: Infinity,
    queryFn: () => call('getConsentNotice', { query: { language } }),
  });
}

/** Records agreement to the notice the patient read (its version and language). */
export function agreeToNotice(notice: Pick<ApiRoutes['getConsentNotice']['response'], 'version' | 'language'>) {
  return call('giveConsent', { body: { notice_version: notice.version, language: notice.language } });
}
