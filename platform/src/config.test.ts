import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { messagingFromConfig } from './messaging/from-config';
import { availableChannels } from './messaging/config';
import { loadConfig } from './config';
import { paymentsFromConfig } from './payments/from-config';
import { createLogger } from './logger';
import { tmpdir } from 'node:os';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';

describe('configuration', () => {
  it('defaults: port 8000, ./data, demo data on, the local identity provider at PUBLIC_URL/oidc', () => {
    const config = loadConfig({});
    assert.equal(config.PORT, 8000);
    assert.ok(config.dataDir.endsWith('/data'));
    assert.equal(config.DEMO_DATA, 'on');
    assert.equal(config.publicUrl, 'http://localhost:8000');
    assert.equal(config.identity.kind, 'local');
    assert.equal(config.identity.issuer, 'http://localhost:8000/oidc');
    assert.equal(config.identity.redirectUri, 'http://localhost:8000/auth/callback');
    assert.equal(config.ACCESS_TOKEN_TTL_SECONDS, 3600);
    assert.equal(config.trustProxy, false, 'no proxy is trusted unless TRUST_PROXY says so');
    assert.equal(config.METRICS_TOKEN, undefined);
    assert.equal(loadConfig({ METRICS_TOKEN: '' }).METRICS_TOKEN, undefined, 'empty (as compose passes it) is unset');
  });

  it('uses Google when a client is configured', () => {
    const config = loadConfig({ GOOGLE_CLIENT_ID: 'id.apps.googleusercontent.com', GOOGLE_CLIENT_SECRET: 's', PUBLIC_URL: 'https://clinic.example.in/' });
    assert.deepEqual(
      { ...config.identity },
      { kind: 'google', issuer: 'https://accounts.google.com', clientId: 'id.apps.googleusercontent.com', clientSecret: 's', redirectUri: 'https://clinic.example.in/auth/callback' },
    );
    assert.throws(() => loadConfig({ GOOGLE_CLIENT_ID: 'id' }), /GOOGLE_CLIENT_SECRET/);
  });

  it('production refuses the local identity provider, fault injection and bad values with a clear message', () => {
    assert.throws(() => loadConfig({ NODE_ENV: 'production' }), /GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET must be set in production/);
    assert.throws(() => loadConfig({ NODE_ENV: 'production', FAULT_INJECTION: 'crash-after-slot-reserved' }), /FAULT_INJECTION is refused/);
    assert.throws(() => loadConfig({ PORT: 'eighty' }), /Invalid configuration: PORT/);
    assert.throws(() => loadConfig({ TOKEN_SECRET: 'short' }), /TOKEN_SECRET/);
    assert.throws(() => loadConfig({ TRUST_PROXY: 'true' }), /Invalid configuration: TRUST_PROXY/);
    assert.throws(() => loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '60000' }), /HTTP_HEADERS_TIMEOUT_MS must not exceed HTTP_REQUEST_TIMEOUT_MS/);
    assert.throws(() => loadConfig({ METRICS_TOKEN: 'short' }), /METRICS_TOKEN/);
    assert.throws(() => loadConfig({ DATA_MASTER_KEY: 'not-32-bytes' }), /Invalid configuration: DATA_MASTER_KEY must be 32 random bytes/);
    assert.throws(() => loadConfig({ DATA_MASTER_KEY: 'A'.repeat(64), DATA_MASTER_KEY_PREVIOUS: 'short' }), /DATA_MASTER_KEY_PREVIOUS/);
  });

  it('messaging: the outbox only where no channel is configured, refused in production by a service that sends; channels set whole or not at all', () => {
    assert.equal(loadConfig({}).messaging.outbox, true);
    const production = { NODE_ENV: 'production', GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 'secret', TOKEN_SECRET: 'x'.repeat(40) };
    assert.throws(() => messagingFromConfig(loadConfig(production)), /A messaging channel must be configured in production/);
    const withMail = loadConfig({ ...production, SMTP_URL: 'smtps://mailer:pass@smtp.example.in:465' });
    assert.deepEqual({ outbox: withMail.messaging.outbox, email: withMail.messaging.email }, { outbox: false, email: { url: 'smtps://mailer:pass@smtp.example.in:465', from: 'Telemed <no-reply@localhost>' } });
    assert.throws(() => messagingFromConfig(loadConfig({ SMS_API_URL: 'https://api.exotel.com/v1/Accounts/a/Sms/send.json' })), /SMS_API_URL, SMS_API_KEY, SMS_SENDER_ID are set together/);
    assert.throws(() => messagingFromConfig(loadConfig({ WHATSAPP_TOKEN: 't' })), /WHATSAPP_TOKEN, WHATSAPP_PHONE_NUMBER_ID, WHATSAPP_APP_SECRET are set together/);
    const sms = { SMS_API_URL: 'https://api.exotel.com/v1/Accounts/a/Sms/send.json', SMS_API_KEY: 'k:t', SMS_SENDER_ID: 'TLMEDC' };
    assert.throws(() => messagingFromConfig(loadConfig({ ...sms, SMS_TEMPLATE_IDS: 'not json' })), /SMS_TEMPLATE_IDS must be a JSON object/);
    assert.throws(() => messagingFromConfig(loadConfig({ ...production, ...sms })), /MESSAGING_CALLBACK_SECRET must be set in production with SMS/);
    assert.deepEqual(loadConfig({ ...sms, SMS_TEMPLATE_IDS: '{"sign_in_code":"1107","appointment_reminder.hi":"1108"}' }).messaging.sms?.templateIds, { sign_in_code: '1107', 'appointment_reminder.hi': '1108' });
    // A service that only reads (the query service) is given the settings' public halves and the channels to offer: it
    // starts, and offers those.
    const reading = loadConfig({ ...production, SMS_API_URL: sms.SMS_API_URL, SMS_SENDER_ID: 'TLMEDC', WHATSAPP_PHONE_NUMBER_ID: '123', MESSAGE_CHANNELS: 'sms, email' });
    assert.deepEqual(availableChannels(reading.messaging), ['sms', 'email']);
    assert.deepEqual(availableChannels(loadConfig({}).messaging), ['whatsapp', 'sms', 'email']);
    assert.deepEqual(availableChannels(withMail.messaging), ['email']);
    assert.throws(() => loadConfig({ MESSAGE_CHANNELS: 'sms,pigeon' }), /MESSAGE_CHANNELS/);
    assert.deepEqual(loadConfig({ REMINDER_OFFSETS_MINUTES: '60, 1440,60' }).REMINDER_OFFSETS_MINUTES, [1440, 60]);
    assert.throws(() => loadConfig({ REMINDER_OFFSETS_MINUTES: '0' }), /REMINDER_OFFSETS_MINUTES/);
  });

  it('payments: Razorpay when its three settings are set together; the local test gateway only outside production', () => {
    const logger = createLogger({ level: 'silent' });
    const dir = mkdtempSync(join(tmpdir(), 'payments-config-'));
    try {
      const razorpay = { RAZORPAY_KEY_ID: 'rzp_live_0000', RAZORPAY_KEY_SECRET: 'key-secret-0000', RAZORPAY_WEBHOOK_SECRET: 'webhook-secret-0000' };
      assert.deepEqual(loadConfig(razorpay).payments, { kind: 'razorpay', keyId: 'rzp_live_0000', keySecret: 'key-secret-0000', webhookSecret: 'webhook-secret-0000', apiUrl: 'https://api.razorpay.com/v1' });
      assert.throws(() => loadConfig({ RAZORPAY_KEY_ID: 'rzp_live_0000' }), /RAZORPAY_KEY_ID, RAZORPAY_KEY_SECRET and RAZORPAY_WEBHOOK_SECRET are set together/);
      const production = { NODE_ENV: 'production', GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 'secret', TOKEN_SECRET: 'x'.repeat(40), DATA_DIR: dir };
      assert.throws(() => paymentsFromConfig(loadConfig(production), logger), /RAZORPAY_KEY_ID, RAZORPAY_KEY_SECRET and RAZORPAY_WEBHOOK_SECRET must be set in production/);
      assert.equal(paymentsFromConfig(loadConfig({ ...production, ...razorpay }), logger).gateway.name, 'razorpay');
      const local = paymentsFromConfig(loadConfig({ DATA_DIR: dir }), logger);
      assert.equal(local.gateway.name, 'local');
      local.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
