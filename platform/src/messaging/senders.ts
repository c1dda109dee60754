import type { MessageChannel } from '@telemed/contracts';
import type { MessagingConfig } from './config';
import { createExotelSmsSender } from './exotel-sms';
import { createOutboxSenders, type OutboxStore } from './outbox';
import type { MessageSender } from './port';
import { createSmtpSender } from './smtp';
import { createWhatsAppSender } from './whatsapp-cloud';

export interface MessageSenders {
  /** The channels this server can send on, each with its adapter. */
  senders: Map<MessageChannel, MessageSender>;
  /** Closes the adapters (the SMTP pool); the outbox store stays its owner's to close. */
  close(): Promise<void>;
}

export interface SenderOptions {
  /** Required when the configuration asks for the outbox. */
  outbox: OutboxStore | null;
  /** The signed address Exotel reports an SMS's delivery to. */
  callbackUrl(messageId: string): string;
}

/** Each configured channel's adapter, or the development outbox for all of them when none is configured. */
export function createSenders(config: MessagingConfig, options: SenderOptions): MessageSenders {
  const list: MessageSender[] = [];
  if (config.outbox) {
    if (!options.outbox) throw new Error('The development outbox is configured but no outbox store was given');
    list.push(...createOutboxSenders(options.outbox));
  } else {
    if (config.email) list.push(createSmtpSender(config.email));
    if (config.sms) list.push(createExotelSmsSender({ ...config.sms, callbackUrl: options.callbackUrl }));
    if (config.whatsapp) list.push(createWhatsAppSender({ url: config.whatsapp.url, token: config.whatsapp.token, phoneNumberId: config.whatsapp.phoneNumberId }));
  }
  const senders = new Map(list.map((sender) => [sender.channel, sender] as const));
  return {
    senders,
    async close() {
      await Promise.allSettled(list.map((sender) => sender.close?.()));
    },
  };
}
