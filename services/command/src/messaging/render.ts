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

export type MessageValues = Partial<Record<MessageParamName, string | number>> & { startsAt?: Date };

const compiled = new Map<string, IntlMessageFormat>();

function format(language: LanguageCode, message: string, values: Record<string, string | number>): string {
  const id = `${language}\u0000${message}`;
  let formatter = compiled.get(id);
  if (!formatter) compiled.set(id, (formatter = new IntlMessageFormat(message, intlLocale(language))));
  return String(formatter.format(values));
}

/** A time as a message says it: the day and month in words and the time of day, in the recipient's language and zone. */
export function messageTime(at: Date, language: LanguageCode, timeZone: string): string {
  return new Intl.DateTimeFormat(intlLocale(language), { day: 'numeric', month: 'short', hour: 'numeric', minute: '2-digit', timeZone }).format(at);
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
    default:
      return `${publicUrl}/my-appointments`;
  }
}

export function renderMessage(kind: MessageKind, language: LanguageCode, values: Partial<Record<MessageParamName, string | number>>): RenderedMessage {
  const texts = MESSAGE_TEXTS[language][kind];
  const names: readonly MessageParamName[] = MESSAGE_PARAMS[kind];
  const filled = Object.fromEntries(names.map((name) => [name, values[name] ?? '']));
  return {
    subject: format(language, texts.subject, filled),
    text: format(language, texts.text, filled),
    params: names.map((name) => String(filled[name])),
  };
}
