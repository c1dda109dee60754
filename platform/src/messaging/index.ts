export * from './port';
export { messagingConfig, availableChannels, type MessagingConfig } from './config';
export { createSmtpSender, messageIdFor, type SmtpSenderOptions } from './smtp';
export { createExotelSmsSender, dltTemplateId, isGsm7, type ExotelSmsOptions } from './exotel-sms';
export { createWhatsAppSender, type WhatsAppSenderOptions } from './whatsapp-cloud';
export { verifyWhatsAppSignature, parseWhatsAppWebhook, signCallback, verifyCallback, parseExotelStatusCallback, isStopReply, signInboundSmsAddress, verifyInboundSmsToken, parseExotelInboundSms } from './webhooks';
export { OutboxStore, createOutboxSenders, outboxFile, outboxRecipient, OUTBOX_KEEP, type OutboxRecord, type OutboxStoreOptions } from './outbox';
export { createSenders, type MessageSenders, type SenderOptions } from './senders';
export { messagingFromConfig, type Messaging } from './from-config';
