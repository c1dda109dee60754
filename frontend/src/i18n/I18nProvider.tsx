import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { IntlProvider, createIntl } from 'react-intl';
import { PRODUCT_NAME } from '@telemed/contracts/constants';
import { DEFAULT_LANGUAGE, intlLocale, isLanguageCode, preferredLanguage, type LanguageCode } from '@telemed/contracts/languages';
import { ENGLISH_MESSAGES, loadMessages, loadedMessages, type Messages } from './catalogues';

/** Where a visitor's choice of language is kept in the browser. */
export const LANGUAGE_STORAGE_KEY = 'telemed.language';
/** The cookie that tells the server the language (platform/src/http/static-frontend.ts reads it). */
const LANGUAGE_COOKIE = 'telemed_language';

/** The language picked in this browser before, if any. */
export function languageChosenHere(): LanguageCode | null {
  try {
    const stored = localStorage.getItem(LANGUAGE_STORAGE_KEY);
    return isLanguageCode(stored) ? stored : null;
  } catch {
    // Storage refused (a private window's policy): the browser's languages decide.
    return null;
  }
}

/** Whether this browser asked for the pseudo-locale (`localStorage['telemed.pseudo'] = '1'`, see pseudo.ts). */
function pseudoLocaleOn(): boolean {
  try {
    return localStorage.getItem('telemed.pseudo') === '1';
  } catch {
    return false;
  }
}

/** The language chosen in this browser before, else the first of the browser's languages the product speaks. */
export function initialLanguage(): LanguageCode {
  const chosen = languageChosenHere();
  if (chosen) return chosen;
  return typeof navigator === 'undefined' ? DEFAULT_LANGUAGE : preferredLanguage(navigator.languages ?? [navigator.language]);
}

interface LanguageContextValue {
  language: LanguageCode;
  /** Switches every screen at once (no reload: what was typed stays) and keeps the choice in this browser. */
  setLanguage(language: LanguageCode): void;
}

const LanguageContext = createContext<LanguageContextValue>({ language: DEFAULT_LANGUAGE, setLanguage: () => {} });

export const useLanguage = () => useContext(LanguageContext);

/**
 * The screens' language: react-intl's provider with the chosen language's messages, `<html lang>` to match. While a
 * newly chosen language's catalogue loads, the screens stay in the one before (never a flash of message ids).
 */
export function I18nProvider({ children, language: fixed }: { children: ReactNode; language?: LanguageCode }) {
  const [wanted, setWanted] = useState<LanguageCode>(() => fixed ?? initialLanguage());
  // The wanted language at once when its messages have loaded (main.tsx waits for them before the first render).
  const [shown, setShown] = useState<{ language: LanguageCode; messages: Messages }>(() => {
    const messages = pseudoLocaleOn() ? null : loadedMessages(wanted);
    return messages ? { language: wanted, messages } : { language: DEFAULT_LANGUAGE, messages: ENGLISH_MESSAGES };
  });

  useEffect(() => {
    let current = true;
    const messages = pseudoLocaleOn() ? import('./pseudo').then(({ pseudoMessages }) => pseudoMessages(ENGLISH_MESSAGES)) : loadMessages(wanted);
    messages.then(
      (messages) => current && setShown({ language: wanted, messages }),
      () => {}, // offline: the screens stay in the language they are in; choosing again tries again
    );
    return () => {
      current = false;
    };
  }, [wanted]);

  // The tab's title in the language too, unless a page has set its own (an article's, a doctor's).
  const lastTitle = useRef<string | null>(null);
  useEffect(() => {
    const title = createIntl({ locale: intlLocale(shown.language), messages: shown.messages }).formatMessage({ id: 'shell.documentTitle' }, { product: PRODUCT_NAME });
    const english = createIntl({ locale: 'en-IN', messages: ENGLISH_MESSAGES }).formatMessage({ id: 'shell.documentTitle' }, { product: PRODUCT_NAME });
    if (document.title === english || document.title === lastTitle.current) {
      document.title = title;
      lastTitle.current = title;
    }
  }, [shown]);

  useEffect(() => {
    document.documentElement.lang = shown.language;
    // The server sends the pages it renders ahead (/login, /welcome, a doctor's page) in the language of this cookie.
    if (!fixed) document.cookie = `${LANGUAGE_COOKIE}=${shown.language}; Path=/; Max-Age=31536000; SameSite=Lax${location.protocol === 'https:' ? '; Secure' : ''}`;
  }, [shown.language, fixed]);

  const setLanguage = useCallback((language: LanguageCode) => {
    setWanted(language);
    try {
      localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
    } catch {
      // Not kept: it holds for this visit.
    }
  }, []);
  const value = useMemo(() => ({ language: shown.language, setLanguage }), [shown.language, setLanguage]);

  return (
    <LanguageContext.Provider value={value}>
      <IntlProvider locale={intlLocale(shown.language)} defaultLocale="en-IN" messages={shown.messages}>
        {children}
      </IntlProvider>
    </LanguageContext.Provider>
  );
}
