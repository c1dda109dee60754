import { useQuery } from '@tanstack/react-query';
import type { ConsentList, ConsentNotice, ConsentLanguage } from '@telemed/contracts';
import { api } from '../../lib/api';

export const consentsKey = ['users', 'me', 'consents'] as const;

/** The patient's consents; `needed` is true only when the server says there is no current one (unknown counts as not needed). */
export function useConsents(enabled = true) {
  const query = useQuery({ queryKey: consentsKey, enabled, queryFn: () => api<ConsentList>('/users/me/consents') });
  return { ...query, needed: query.data ? !query.data.has_current_consent : false };
}

export function useConsentNotice(language: ConsentLanguage, enabled: boolean) {
  return useQuery({
    queryKey: ['consent-notice', language],
    enabled,
    staleTime: Infinity,
    queryFn: () => api<ConsentNotice>(`/consents/notice?language=${language}`),
  });
}

/** Records agreement to the notice the patient read (its version and language). */
export function agreeToNotice(notice: Pick<ConsentNotice, 'version' | 'language'>) {
  return api('/users/me/consents', { method: 'POST', body: { notice_version: notice.version, language: notice.language } });
}
