import { describe, expect, it } from 'vitest';
import { IntlMessageFormat } from 'intl-messageformat';
import { ERROR_TEXT_CATALOGUES, STATUS_ERROR_CODES } from '@telemed/contracts';
import { createIntl } from 'react-intl';
import english from './catalogues/en/errors.json';
import { ApiError } from '../lib/api';
import { errorText } from './errorText';
import type { Translate } from './useT';

const snakeCase = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const messages: Record<string, string> = english;

function translator(language: string, overlay: Record<string, string>): Translate {
  const intl = createIntl({ locale: language, messages: { ...messages, ...overlay, 'common.ok': 'OK' } });
  const t = ((id: string, values?: Record<string, string>) => intl.formatMessage({ id }, values)) as Translate;
  t.intl = intl;
  return t;
}

describe('the errors catalogue', () => {
  it("says in English each text the server can refuse with, exactly (the seeds' texts), under the code it sends", () => {
    // A code two catalogues share keeps the first text, as the server's errorCode does.
    const seen = new Set<string>();
    for (const catalogue of ERROR_TEXT_CATALOGUES) {
      for (const [key, text] of Object.entries(catalogue)) {
        const id = `errors.${snakeCase(key)}`;
        if (typeof text === 'string') {
          expect(messages[id], `${id} for "${text}"`).toBeDefined();
          if (!seen.has(id)) expect(new IntlMessageFormat(messages[id]!, 'en').format(), id).toBe(text);
        } else if (typeof text === 'function' && messages[id] && !seen.has(id)) {
          const values = Array.from({ length: Math.max(1, text.length) }, (_, i) => `value${i}`);
          expect(new IntlMessageFormat(messages[id]!, 'en').format(Object.fromEntries(values.map((v, i) => [i, v]))), id).toBe((text as (...v: string[]) => unknown)(...values));
        }
        seen.add(id);
      }
    }
    for (const code of Object.values(STATUS_ERROR_CODES)) expect(messages[`errors.${code}`], code).toBeDefined();
  });
});

describe('errorText', () => {
  const refusal = new ApiError(409, 'Dr. Rao is not available at 10:00', 'slot_taken', ['Rao', '10:00']);
  const hindi = translator('hi', { 'errors.slot_taken': 'डॉ. {0} {1} बजे उपलब्ध नहीं हैं', 'common.tryAgain': 'फिर कोशिश करें' });

  it("shows English readers the server's detail as it came", () => {
    expect(errorText(translator('en', {}), true, refusal, 'common.ok')).toBe('Dr. Rao is not available at 10:00');
  });

  it('shows a refusal by its code in the reader’s language, with the values the server gave', () => {
    expect(errorText(hindi, false, refusal, 'common.ok')).toBe('डॉ. Rao 10:00 बजे उपलब्ध नहीं हैं');
  });

  it("says an appointment's status the server named in the reader's words", () => {
    const tamil = translator('ta', { 'errors.appointment_not_confirmed': 'நிலை: {0}', 'errors.status.requested': 'கோரப்பட்டது' });
    expect(errorText(tamil, false, new ApiError(409, 'This appointment is requested, not confirmed', 'appointment_not_confirmed', ['requested']), 'common.ok')).toBe('நிலை: கோரப்பட்டது');
  });

  it("shows the screen's own message for a failure the server did not explain, a server fault, or an unknown code", () => {
    expect(errorText(hindi, false, new TypeError('Failed to fetch'), 'common.ok')).toBe('OK');
    expect(errorText(hindi, false, new ApiError(500, 'Internal error', 'internal_error'), 'common.ok')).toBe('OK');
    expect(errorText(hindi, false, new ApiError(409, 'Something new', 'a_code_of_tomorrow'), 'common.ok')).toBe('OK');
    expect(errorText(translator('en', {}), true, new ApiError(500, 'Internal error', 'internal_error'), 'common.ok')).toBe('OK');
  });
});
