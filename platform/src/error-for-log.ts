/**
 * What a log line keeps of an error: its kind, code, message and stack, scrubbed of values a library may have copied
 * into them, and nothing else. Pino's default serializer copies every own property of an error, and drivers put the
 * offending values there and in their messages: a MongoDB duplicate key names the e-mail address (`keyValue`, and
 * `dup key: { email: "…" }` in the message), a request library its body. Logs hold no personal data (issue 12).
 */
export interface LoggedError {
  type: string;
  message: string;
  stack?: string;
  code?: string | number;
  cause?: LoggedError;
}

const SCRUBS: Array<[RegExp, string]> = [
  [/dup key: \{[^}]*\}/g, 'dup key: [redacted]'],
  [/enc1\.[A-Za-z0-9_.-]+/g, '[ciphertext]'],
  [/[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g, '[email]'],
  // A phone number (ten digits or more, with spaces, dashes or a leading +); ids and positions in errors are shorter.
  [/\+?\d[\d -]{8,}\d/g, '[number]'],
  [/(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, '$1 [redacted]'],
];

export function scrubbed(text: string): string {
  let out = text;
  for (const [pattern, replacement] of SCRUBS) out = out.replace(pattern, replacement);
  return out;
}

export function errorForLog(value: unknown, depth = 0): LoggedError {
  if (!(value instanceof Error)) {
    // A thrown non-error (a string, an object) may be anything: only its kind is kept.
    return { type: value === null ? 'null' : typeof value, message: 'a value that is not an Error was thrown' };
  }
  const logged: LoggedError = { type: value.name || value.constructor?.name || 'Error', message: scrubbed(value.message) };
  if (value.stack) logged.stack = scrubbed(value.stack);
  const code = (value as { code?: unknown }).code;
  if (typeof code === 'string' || typeof code === 'number') logged.code = code;
  if (value.cause !== undefined && depth < 2) logged.cause = errorForLog(value.cause, depth + 1);
  return logged;
}
