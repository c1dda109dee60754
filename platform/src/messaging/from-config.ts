import { randomBytes } from 'node:crypto';
import type { Config } from '../config';
import { OutboxStore, outboxFile } from './outbox';
import { createSenders } from './senders';
import { signCallback } from './webhooks';

/**
 * The messaging channels the configuration gives, each with its adapter, or the development outbox standing in for all
 * of them (never in production: the configuration refuses that); the SMS status callback's signed address.
 */
export function messagingFromConfig(config: Config) {
  const settings = config.messaging;
  if (settings.problems.length > 0) throw new Error(settings.problems.join('; '));
  if (settings.outbox && settings.production) {
    throw new Error('A messaging channel must be configured in production (SMTP_URL, the SMS_* or the WHATSAPP_* settings): the development outbox is not a channel');
  }
  // In memory where the read models are (tests); else a file beside them, so the outbox outlives a restart.
  const outbox = settings.outbox ? new OutboxStore({ filename: config.readStoreKind === 'memory' ? ':memory:' : outboxFile(config.dataDir) }) : null;
  // Unset outside production: a fresh secret each start (a callback for an SMS sent before a restart is refused).
  const callbackSecret = settings.callbackSecret ?? randomBytes(32).toString('base64url');
  const channels = createSenders(settings, {
    outbox,
    callbackUrl: (messageId) => `${config.publicUrl}/api/v1/messaging/sms/status?message=${encodeURIComponent(messageId)}&token=${signCallback(callbackSecret, messageId)}`,
  });
  return {
    senders: channels.senders,
    outbox,
    callbackSecret: settings.sms ? callbackSecret : null,
    whatsapp: settings.whatsapp ? { appSecret: settings.whatsapp.appSecret, verifyToken: settings.whatsapp.verifyToken } : null,
    async close() {
      await channels.close();
      outbox?.close();
    },
  };
}
export type Messaging = ReturnType<typeof messagingFromConfig>;
