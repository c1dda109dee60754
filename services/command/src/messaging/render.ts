import { IntlMessageFormat } from 'intl-messageformat';
import { MESSAGE_PARAMS, type MessageKind, type MessageParamName } from '@telemed/contracts';
import { intlLocale, type LanguageCode } from '@telemed/contracts/languages';
import { MESSAGE_TEXTS } from '@telemed/contracts/message-texts';

/** A message's text in its recipient's language, with its values in MESSAGE_PARAMS' order (a template's parameters). */
export interface RenderedMessage {
  subject: string;
  text: string;
  params: string[];
}

const compiled = new Map<string, IntlMessageFormat>();

function format(language: LanguageCode, message: string, values: Record<string, string | number>): string {
  const id = `${language}\u0000${message}`;
  let formatter = compiled.get(id);
  if (!formatter) compiled.set(id, (formatter = new IntlMessageFormat(message, intlLocale(language))));
  return String(formatter.format(values));
}

const timeFormats = new Map<string, Intl.DateTimeFormat>();

/** A time as a message says it: the day and month in words and the time of day, in the recipient's language and zone. */
export function messageTime(at: Date, language: LanguageCode, timeZone: string): string {
  const id = `${language}\u0000${timeZone}`;
  let format = timeFormats.get(id);
  if (!format) timeFormats.set(id, (format = new Intl.DateTimeFormat(intlLocale(language), { day: 'numeric', month: 'short', hour: 'numeric', minute: '2-digit', timeZone })));
  return format.format(at);
}

/** The address a message sends its recipient to, on the product's own site. */
export function messageLink(publicUrl: string, kind: MessageKind, appointmentId: string | null): string {
  switch (kind) {
    case 'appointment_requested':
      return `${publicUrl}/doctor-home`;
    case 'patient_waiting':
    case 'appointment_reminder':
      return appointmentId ? `${publicUrl}/video-call?appointment_id=${encodeURIComponent(appointmentId)}` : `${publicUrl}/my-appointments`;
    case 'sign_in_code':
      return publicUrl;
    case 'phone_verification_code':
      return `${publicUrl}/profile`;
    default:
      return `${publicUrl}/my-appointments`;
  }
}

/** Longest a name is in a message: what an SMS template's variable allows. */
const NAME_LENGTH = 40;

/**
 * A person's name as a message may say it: letters (of any script), spaces, dots ending abbreviations, hyphens and
 * apostrophes only, and short. A name is what its owner typed: nothing in it may read as a link or a sentence sent in the product's name.
 */
export function nameInMessage(name: string): string {
  // A dot only ends an abbreviation (Dr. K. Rao): one between letters (a domain, `evil.example`) becomes a space too.
  const lettersOnly = name.normalize('NFC').replace(/[^\p{L}\p{M} .'-]/gu, ' ').replace(/\.(?=\S)/g, '. ');
  // What is left of an address (`https`, `www`) is no part of a name.
  const cleaned = lettersOnly.replace(/\b(https?|www)\b/giu, ' ').replace(/\s+/g, ' ').trim();
  return cleaned.length > NAME_LENGTH ? `${cleaned.slice(0, NAME_LENGTH - 1).trimEnd()}…` : cleaned;
}

export function renderMessage(kind: MessageKind, language: LanguageCode, values: Partial<Record<MessageParamName, string | number>>): RenderedMessage {
  const texts = MESSAGE_TEXTS[language][kind];
  const names: readonly MessageParamName[] = MESSAGE_PARAMS[kind];
  const filled = Object.fromEntries(names.map((name) => [name, name === 'doctor' ? nameInMessage(String(values.doctor ?? '')) : (values[name] ?? '')]));
  return {
    subject: format(language, texts.subject, filled),
    text: format(language, texts.text, filled),
    params: names.map((name) => String(filled[name])),
  };
}
