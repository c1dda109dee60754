import { MESSAGE_KINDS, MESSAGE_PARAMS, type MessageKind } from '@telemed/contracts';
import { LANGUAGE_CODES, type LanguageCode } from '@telemed/contracts/languages';
import { MESSAGE_TEXTS } from '@telemed/contracts/message-texts';

/**
 * The texts to register with the providers before a message can be sent: a DLT template per kind and language for SMS
 * (the variables written `{#var#}`, in MESSAGE_PARAMS' order) and a WhatsApp template (`telemed_<kind>`, body
 * variables `{{1}}`, `{{2}}`, …). What is sent fills them in that order, so an SMS matches its registered template.
 */
export interface ProviderTemplate {
  kind: MessageKind;
  language: LanguageCode;
  whatsapp_name: string;
  dlt: string;
  whatsapp: string;
}

function withHoles(text: string, kind: MessageKind, hole: (index: number) => string): string {
  const names: readonly string[] = MESSAGE_PARAMS[kind];
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const index = names.indexOf(name);
    return index === -1 ? whole : hole(index);
  });
}

export function providerTemplates(): ProviderTemplate[] {
  return LANGUAGE_CODES.flatMap((language) =>
    MESSAGE_KINDS.map((kind) => {
      const { text } = MESSAGE_TEXTS[language][kind];
      return { kind, language, whatsapp_name: `telemed_${kind}`, dlt: withHoles(text, kind, () => '{#var#}'), whatsapp: withHoles(text, kind, (i) => `{{${i + 1}}}`) };
    }),
  );
}
