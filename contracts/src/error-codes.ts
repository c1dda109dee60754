import { ADMIN_TEXTS } from './admin';
import { BLOG_TEXTS } from './blog-constants';
import { CONSENT_TEXTS } from './consent-notice';
import { CONSULTATION_TEXTS } from './consultation';
import { ERASURE_TEXTS } from './erasure';
import { INSTITUTION_TEXTS } from './institutions';
import { PRIVACY_TEXTS } from './privacy';
import { RECORD_TEXTS } from './record-constants';
import { API_TEXTS } from './texts';

/**
 * Every error answer is `{"detail", "code"}`: `detail` the seeds' English text, `code` a stable name of what went
 * wrong that screens translate. The code of a text is its key in the text catalogues, in snake_case
 * (`RECORD_TEXTS.fileErased` → `file_erased`); a text with values in it (a catalogue function) is recognised by its
 * fixed parts. A text of no catalogue gets its status's code.
 */
const CATALOGUES: ReadonlyArray<Readonly<Record<string, unknown>>> = [API_TEXTS, RECORD_TEXTS, CONSULTATION_TEXTS, BLOG_TEXTS, INSTITUTION_TEXTS, ADMIN_TEXTS, PRIVACY_TEXTS, CONSENT_TEXTS, ERASURE_TEXTS];

/** The code of an answer whose text is in no catalogue: by its status. */
export const STATUS_ERROR_CODES: Readonly<Record<number, string>> = {
  400: 'bad_request',
  401: 'unauthenticated',
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
for (const catalogue of CATALOGUES) {
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
      byPattern.push([new RegExp(`^${shown.split(HOLE).map(escapeRegExp).join('[\\s\\S]*?')}$`), code]);
    }
  }
}

/** The stable code of an error answer with this status and detail. */
export function errorCode(status: number, detail: unknown): string {
  if (typeof detail === 'string') {
    const exact = byText.get(detail);
    if (exact) return exact;
    for (const [pattern, code] of byPattern) if (pattern.test(detail)) return code;
  }
  return STATUS_ERROR_CODES[status] ?? (status >= 500 ? 'internal_error' : 'bad_request');
}

/** An error answer's body. */
export function errorBody<D>(status: number, detail: D): { detail: D; code: string } {
  return { detail, code: errorCode(status, detail) };
}
