import type { MessageKind } from '../messaging';

/**
 * A kind's text in one language, as ICU messages whose holes are MESSAGE_PARAMS' names: `text` is what an SMS, a
 * WhatsApp template's body or an e-mail's body says; `subject` an e-mail's subject. Each text is what a DLT template and
 * a WhatsApp template are registered with (`npm run messaging:templates` prints them), so it changes only with them.
 */
export interface MessageText {
  subject: string;
  text: string;
}
export type MessageTexts = Record<MessageKind, MessageText>;
