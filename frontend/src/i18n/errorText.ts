import { useCallback } from 'react';
import { ApiError } from '../lib/api';
import { useLanguage } from './I18nProvider';
import { useT, type MessageId, type Translate } from './useT';

/** A value the server put in a refusal, in the reader's words when it is one of the product's (an appointment's status). */
function valueIn(t: Translate, value: string): string {
  const id = `errors.status.${value}`;
  return id in t.intl.messages ? t(id as MessageId) : value;
}

/**
 * What a failure says to the user, in their language: a refusal the server explained (a 4xx) by its `code`, from the
 * `errors` catalogue with the values the server gave; anything else (offline, a 5xx, a code no catalogue has) by the
 * screen's own message. In English the server's detail is shown as it came: it is the seeds' exact text.
 */
export function errorText(t: Translate, english: boolean, error: unknown, fallback: MessageId, fallbackValues?: Record<string, string | number>): string {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) {
    if (english && error.detail) return error.detail;
    const id = `errors.${error.code}`;
    if (error.code && id in t.intl.messages) return t(id as MessageId, Object.fromEntries(error.values.map((value, i) => [String(i), valueIn(t, value)])));
  }
  return t(fallback, fallbackValues);
}

/** `errorText` bound to the chosen language: `const explain = useErrorText(); explain(e, 'records.uploadFailed')`. */
export function useErrorText(): (error: unknown, fallback: MessageId, fallbackValues?: Record<string, string | number>) => string {
  const t = useT();
  const { language } = useLanguage();
  return useCallback((error, fallback, fallbackValues) => errorText(t, language === 'en', error, fallback, fallbackValues), [t, language]);
}
