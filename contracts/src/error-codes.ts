import { ADMIN_TEXTS } from './admin';
import { BLOG_TEXTS } from './blog-constants';
import { CONSENT_TEXTS } from './consent-notice';
import { CONSULTATION_TEXTS } from './consultation';
import { ERASURE_TEXTS } from './erasure';
import { INSTITUTION_TEXTS } from './institutions';
import { PRIVACY_TEXTS } from './privacy';
import { RECORD_TEXTS } from './record-constants';
import { API_TEXTS } from './texts';
import { MESSAGING_TEXTS } from './messaging';
import { WALLET_TEXTS } from './wallet';

/**
 * Every error answer is `{"detail", "code"}`: `detail` the seeds' English text, `code` a stable name of what went
 * wrong that screens translate. The code of a text is its key in the text catalogues, in snake_case
 * (`RECORD_TEXTS.fileErased` → `file_erased`); a text with values in it (a catalogue function) is recognised by its
 * fixed parts. A text of no catalogue gets its status's code.
 */
export const ERROR_TEXT_CATALOGUES: ReadonlyArray<Readonly<Record<string, unknown>>> = [API_TEXTS, RECORD_TEXTS, CONSULTATION_TEXTS, BLOG_TEXTS, INSTITUTION_TEXTS, ADMIN_TEXTS, PRIVACY_TEXTS, CONSENT_TEXTS, ERASURE_TEXTS, MESSAGING_TEXTS, WALLET_TEXTS];

/** The code of an answer whose text is in no catalogue: by its status. */
export const STATUS_ERROR_CODES: Readonly<Record<number, string>> = {
  400: 'bad_request',
  401: 'unauthenticated',
  402: 'payment_required',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  406: 'not_acceptable',
  408: 'request_timeout',
  409: 'conflict',
  410: 'gone',
  411: 'length_required',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'validation_failed',
  429: 'too_many_requests',
  431: 'headers_too_large',
  500: 'internal_error',
  503: 'service_unavailable',
};

const snakeCase = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

const byText = new Map<string, string>();
const byPattern: Array<[RegExp, string]> = [];
const HOLE = '\u0000';
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
for (const catalogue of ERROR_TEXT_CATALOGUES) {
  for (const [key, text] of Object.entries(catalogue)) {
    const code = snakeCase(key);
    if (typeof text === 'string') {
      if (!byText.has(text)) byText.set(text, code);
    } else if (typeof text === 'function') {
      let shown: unknown;
      try {
        shown = (text as (...values: string[]) => unknown)(...Array.from({ length: Math.max(1, text.length) }, () => HOLE));
      } catch {
        continue;
      }
      if (typeof shown !== 'string' || !shown.includes(HOLE)) continue;
      byPattern.push([new RegExp(`^${shown.split(HOLE).map(escapeRegExp).join('([\\s\\S]*?)')}$`), code]);
    }
  }
}

/** The stable code of an error answer with this status and detail, and the values a text with holes had in them. */
export function errorMatch(status: number, detail: unknown): { code: string; values?: string[] } {
  if (typeof detail === 'string') {
    const exact = byText.get(detail);
    if (exact) return { code: exact };
    for (const [pattern, code] of byPattern) {
      const match = pattern.exec(detail);
      if (match) return { code, values: match.slice(1) };
    }
  }
  return { code: STATUS_ERROR_CODES[status] ?? (status >= 500 ? 'internal_error' : 'bad_request') };
}

/** The stable code of an error answer with this status and detail. */
export function errorCode(status: number, detail: unknown): string {
  return errorMatch(status, detail).code;
}

/**
 * An error answer's body: the detail, its code, and for a text with values in it (`Dr. {0} is not available`) the
 * values in order, so that a screen can say the same in the reader's language.
 */
export function errorBody<D>(status: number, detail: D): { detail: D; code: string; values?: string[] } {
  const { code, values } = errorMatch(status, detail);
  return values ? { detail, code, values } : { detail, code };
}
