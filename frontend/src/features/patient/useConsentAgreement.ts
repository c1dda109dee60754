import { useState } from 'react';
import type { ConsentLanguage } from '@telemed/contracts/consent-notice';
import { useLanguage } from '../../i18n/I18nProvider';
import { useConsentNotice, useConsents } from './consent';

/**
 * The privacy notice a patient agrees to before a first booking or upload (or after a withdrawal): whether it is
 * needed, the notice in the chosen language, and the box ticked under it. `panel` is what ConsentNoticePanel shows.
 * The notice is in the screens' language until the patient picks another for it; a choice holds while the screens stay
 * in the language it was made under (switching the screens' language brings the notice along).
 */
export function useConsentAgreement(enabled = true) {
  const consents = useConsents(enabled);
  const screens = useLanguage().language;
  const [choice, setChoice] = useState<{ screens: ConsentLanguage; language: ConsentLanguage } | null>(null);
  const language = choice && choice.screens === screens ? choice.language : screens;
  const setLanguage = (picked: ConsentLanguage) => setChoice({ screens, language: picked });
  const notice = useConsentNotice(language, enabled && consents.needed);
  // The text the box was ticked under (its hash): another language's text, or none while it loads, is not agreed to.
  const [agreedTo, setAgreedTo] = useState<string | null>(null);
  const agreed = notice.data !== undefined && agreedTo === notice.data.text_hash;
  const setAgreed = (ticked: boolean) => setAgreedTo(ticked && notice.data ? notice.data.text_hash : null);
  const [missing, setMissing] = useState(false);
  return {
    needed: consents.needed,
    loading: consents.isLoading,
    /** The notice shown: what is agreed to is the one under which the box was ticked (switching language unticks it). */
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
      setAgreedTo(null);
      setMissing(false);
    },
    panel: { notice: notice.data, loading: notice.isLoading, language, onLanguage: setLanguage, agreed, onAgreed: setAgreed, missing },
  };
}
