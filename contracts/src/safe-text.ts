import { z } from './zod';

/**
 * Text that people type (names, addresses, notes, reasons) never needs control characters, and some do harm:
 * NUL truncates in C libraries, escape sequences repaint an operator's terminal when a log is read, bidirectional
 * overrides make a name read differently from what it is, and an unpaired surrogate is not text at all.
 * One rule, two kinds: a single line, and multi-line free text where tab and line breaks mean something.
 */
export type TextKind = 'line' | 'multiline';

// C0 controls, DEL and C1 controls; U+2028/2029 (line/paragraph separators) in single lines; bidi embeddings,
// overrides and isolates (U+202A–U+202E, U+2066–U+2069). Zero-width joiners stay: Indic scripts need them.
// Matching control characters is the point of these patterns.
/* eslint-disable no-control-regex */
const UNSAFE_IN_LINE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const UNSAFE_IN_MULTILINE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
/* eslint-enable no-control-regex */
const UNPAIRED_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export const UNSAFE_TEXT_MESSAGE = 'Control characters, bidirectional overrides and unpaired surrogates are not allowed';

/** The first character that the rule refuses, as `U+XXXX`, or null when the text is acceptable. */
export function unsafeCharacterIn(value: string, kind: TextKind = 'line'): string | null {
  const found = (kind === 'line' ? UNSAFE_IN_LINE : UNSAFE_IN_MULTILINE).exec(value) ?? UNPAIRED_SURROGATE.exec(value);
  return found ? `U+${found[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}` : null;
}

/** A zod string that refuses unsafe characters; chain `.trim()`, `.min()`, `.max()`, `.regex()` after it. */
export function safeText(kind: TextKind = 'line') {
  return z.string().check((ctx) => {
    const unsafe = unsafeCharacterIn(ctx.value, kind);
    if (unsafe) ctx.issues.push({ code: 'custom', message: `${UNSAFE_TEXT_MESSAGE} (${unsafe})`, input: ctx.value, params: { type: 'unsafe_text' } });
  });
}

/** Trimmed single-line text of 1..max characters (names, titles, specialties). */
export const safeLine = (max: number) => safeText('line').trim().min(1).max(max);
