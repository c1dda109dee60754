import { createIntl, createIntlCache } from 'react-intl';
import type { PrimitiveType } from 'intl-messageformat';
import { ENGLISH_MESSAGES } from '../i18n/catalogues';
import type { MessageId } from '../i18n/useT';

const english = createIntl({ locale: 'en-IN', defaultLocale: 'en-IN', messages: ENGLISH_MESSAGES }, createIntlCache());

/**
 * A message in English, outside any component: for the exported English texts that tests and other modules compare
 * the screen with (`UNSAVED_CHANGES_QUESTION`, `AUTOSAVE_TEXTS`, `ERASURE_STEPS`). The screens themselves read their
 * messages through useT(), in the chosen language.
 */
export function englishText(id: MessageId, values?: Record<string, PrimitiveType>): string {
  return english.formatMessage({ id }, values);
}

