import type { MessageChannel as ChannelName, MessageKind } from '@telemed/contracts';
import type { LanguageCode } from '@telemed/contracts/languages';

/** One send of one message on one channel, rendered in the recipient's language. */
export interface OutgoingMessage {
  message_id: string;
  /** The same on every attempt of this message on this channel (appointment, kind, offset, channel): a repeat can be dropped by it. */
  idempotency_key: string;
  channel: ChannelName;
  kind: MessageKind;
  language: LanguageCode;
  /** An e-mail address, or a phone number in E.164 (+919876543210). */
  to: string;
  /** The e-mail's subject (a text of its own in the recipient's language). */
  subject: string;
  /** The whole text as the recipient reads it: an SMS, an e-mail's body, what the outbox shows. */
  text: string;
  /**
   * The text's values in MESSAGE_PARAMS' order, already written in the recipient's language: what a WhatsApp template's
   * body parameters and a DLT template's variables are filled with.
   */
  params: string[];
}

export interface SendResult {
  /** The provider's id for this send (what its delivery callbacks name). */
  provider_message_id: string;
}

/**
 * A send that failed. `permanent`: trying this channel again cannot help (an invalid number, a template the provider
 * does not know, a recipient who blocked us); otherwise the message is retried with backoff.
 */
export class ChannelSendError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
    this.name = 'ChannelSendError';
  }
}

/**
 * A way to reach people: SMTP e-mail, an SMS provider, WhatsApp's Cloud API, or the development outbox standing in for
 * any of them. `send` resolves once the provider has accepted the message (delivery is reported later, by callback),
 * and throws ChannelSendError when it refused it or could not be reached. It never logs the address or the text.
 */
export interface MessageSender {
  readonly channel: ChannelName;
  /** What the console and logs call it: 'smtp', 'exotel', 'whatsapp-cloud', 'outbox'. */
  readonly provider: string;
  send(message: OutgoingMessage): Promise<SendResult>;
  close?(): Promise<void>;
}

/**
 * A provider's verified report about a message it was given (delivery callback, status webhook). `message_id`: ours,
 * when the report carries it back (WhatsApp's biz_opaque_callback_data; the SMS callback's signed address names it).
 */
export type DeliveryReport = { provider_message_id: string; message_id?: string } & (
  | { status: 'delivered' }
  | { status: 'failed'; error: string }
  /** Accepted or read: nothing to record beyond what is known. */
  | { status: 'progress' }
);

/** A person's reply through a channel that allows one (WhatsApp, an SMS keyword): STOP ends that channel for them. */
export interface InboundReply {
  channel: ChannelName;
  /** E.164. */
  from: string;
  text: string;
}
