import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { messagingConfig } from './config';
import { OutboxStore } from './outbox';
import { createSenders } from './senders';

const callbackUrl = (id: string) => `https://telemed.example.in/api/v1/messaging/sms/status?message=${id}`;
const baseEnv = { MAIL_FROM: 'Telemed <no-reply@example.in>', SMS_TEMPLATE_IDS: '{}', WHATSAPP_API_URL: 'https://graph.facebook.com/v21.0' };

describe('createSenders', () => {
  it('puts the outbox on every channel when none is configured', async () => {
    const store = new OutboxStore({ filename: ':memory:' });
    try {
      const { senders, close } = createSenders(messagingConfig(baseEnv, false), { outbox: store, callbackUrl });
      assert.deepEqual([...senders.keys()].sort(), ['email', 'sms', 'whatsapp']);
      assert.ok([...senders.values()].every((s) => s.provider === 'outbox'));
      await close();
    } finally {
      store.close();
    }
  });

  it('refuses the outbox configuration without a store', () => {
    assert.throws(() => createSenders(messagingConfig(baseEnv, false), { outbox: null, callbackUrl }), /outbox store/);
  });

  it('chooses the adapter of each configured channel, and only those', async () => {
    const config = messagingConfig(
      { ...baseEnv, SMTP_URL: 'smtp://user:pass@127.0.0.1:2525', SMS_API_URL: 'https://api.exotel.com/v1/Accounts/acme1/Sms/send.json', SMS_API_KEY: 'k:t', SMS_SENDER_ID: 'TLMEDC', SMS_TEMPLATE_IDS: '{"sign_in_code":"1107"}' },
      false,
    );
    const { senders, close } = createSenders(config, { outbox: null, callbackUrl });
    assert.deepEqual([...senders.entries()].map(([channel, s]) => [channel, s.provider]), [['email', 'smtp'], ['sms', 'exotel']]);
    await close();
    const whatsapp = createSenders(messagingConfig({ ...baseEnv, WHATSAPP_TOKEN: 't', WHATSAPP_PHONE_NUMBER_ID: '1065', WHATSAPP_APP_SECRET: 'app-secret' }, true), { outbox: null, callbackUrl });
    assert.deepEqual([...whatsapp.senders.entries()].map(([channel, s]) => [channel, s.provider]), [['whatsapp', 'whatsapp-cloud']]);
    await whatsapp.close();
  });
});
