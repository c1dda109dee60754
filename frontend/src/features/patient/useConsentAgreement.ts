import { useState } from 'react';
import type { ConsentLanguage } from '@telemed/contracts/consent-notice';
import { useConsentNotice, useConsents } from './consent';

/**
 * The privacy notice a patient agrees to before a first booking or upload (or after a withdrawal): whether it is
 * needed, the notice in the chosen language, and the box ticked under it. `panel` is what ConsentNoticePanel shows.
 */
export function useConsentAgreement(enabled = true) {
  const consents = useConsents(enabled);
  const [language, setLanguage] = useState<ConsentLanguage>('en');
  const notice = useConsentNotice(language, enabled && consents.needed);
  const [agreed, setAgreed] = useState(false);
  const [missing, setMissing] = useState(false);
  return {
    needed: consents.needed,
    loading: consents.isLoading,
    /** The notice shown: what is agreed to is the one under which the box was ticked. */
    notice: notice.data,
    /** False, and the panel says the box is not ticked, when an agreement is needed and not given. */
    ensureAgreed: () => {
      if (consents.needed && !agreed) {
        setMissing(true);
        return false;
      }
      return true;
    },
    reset: () => {
      setAgreed(false);
      setMissing(false);
    },
    panel: { notice: notice.data, loading: notice.isLoading, language, onLanguage: setLanguage, agreed, onAgreed: setAgreed, missing },
  };
}
