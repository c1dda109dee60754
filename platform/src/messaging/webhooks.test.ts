import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import {
  isStopReply,
  parseExotelInboundSms,
  parseExotelStatusCallback,
  parseWhatsAppWebhook,
  signCallback,
  signInboundSmsAddress,
  verifyCallback,
  verifyInboundSmsToken,
  verifyWhatsAppSignature,
} from './webhooks';

const APP_SECRET = 'whatsapp-app-secret-1';

function signed(body: Buffer, secret = APP_SECRET): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** A status webhook with one of each status, shaped as Meta's messages webhook reference shows it. */
const statusWebhook = {
  object: 'whatsapp_business_account',
  entry: [
    {
      id: '102290129340398',
      changes: [
        {
          field: 'messages',
          value: {
            messaging_product: 'whatsapp',
            metadata: { display_phone_number: '15550783881', phone_number_id: '106540352242922' },
            statuses: [
              { id: 'wamid.SENT', status: 'sent', timestamp: '1750263773', recipient_id: '919876543210', biz_opaque_callback_data: 'msg-1', conversation: { id: 'c1', origin: { type: 'utility' } }, pricing: { billable: true, pricing_model: 'PMP', category: 'utility' } },
              { id: 'wamid.DELIVERED', status: 'delivered', timestamp: '1750263774', recipient_id: '919876543210', biz_opaque_callback_data: 'msg-2' },
              { id: 'wamid.READ', status: 'read', timestamp: '1750263775', recipient_id: '919876543210' },
              {
                id: 'wamid.FAILED',
                status: 'failed',
                timestamp: '1750263776',
                recipient_id: '919876543210',
                errors: [{ code: 131026, title: 'Message undeliverable', message: 'Message undeliverable', error_data: { details: 'Message Undeliverable.' } }],
              },
              { id: 'wamid.FAILED2', status: 'failed', timestamp: '1750263777', recipient_id: '919876543210' },
              { id: 'wamid.ODD', status: 'deleted', timestamp: '1750263778' },
              { status: 'delivered' },
              'not a status',
            ],
          },
        },
      ],
    },
  ],
};

const replyWebhook = {
  object: 'whatsapp_business_account',
  entry: [
    {
      id: '102290129340398',
      changes: [
        {
          field: 'messages',
          value: {
            messaging_product: 'whatsapp',
            metadata: { display_phone_number: '15550783881', phone_number_id: '106540352242922' },
            contacts: [{ profile: { name: 'Meera' }, wa_id: '919876543210' }],
            messages: [
              { from: '919876543210', id: 'wamid.IN1', timestamp: '1749416383', type: 'text', text: { body: 'STOP' } },
              { from: '919812345678', id: 'wamid.IN2', timestamp: '1749416384', type: 'button', button: { payload: 'Stop promotions', text: 'Stop' } },
              { from: '919876543210', id: 'wamid.IN3', timestamp: '1749416385', type: 'image', image: { id: '1', mime_type: 'image/jpeg' } },
              { from: 'not-a-number', id: 'wamid.IN4', type: 'text', text: { body: 'hi' } },
              { from: '919876543210', id: 'wamid.IN5', type: 'text' },
            ],
          },
        },
      ],
    },
  ],
};

describe('verifyWhatsAppSignature', () => {
  const body = Buffer.from(JSON.stringify(statusWebhook));

  it('accepts the HMAC of the raw body with the app secret (in either case of hex)', () => {
    assert.equal(verifyWhatsAppSignature(body, signed(body), APP_SECRET), true);
    assert.equal(verifyWhatsAppSignature(body, signed(body).toUpperCase().replace('SHA256=', 'sha256='), APP_SECRET), true);
  });

  it('refuses a tampered body, another secret, a missing or malformed header', () => {
    const tampered = Buffer.from(JSON.stringify(statusWebhook).replace('wamid.FAILED', 'wamid.FAILEX'));
    assert.equal(verifyWhatsAppSignature(tampered, signed(body), APP_SECRET), false);
    assert.equal(verifyWhatsAppSignature(body, signed(body, 'another-secret'), APP_SECRET), false);
    assert.equal(verifyWhatsAppSignature(body, undefined, APP_SECRET), false);
    assert.equal(verifyWhatsAppSignature(body, '', APP_SECRET), false);
    assert.equal(verifyWhatsAppSignature(body, signed(body).slice('sha256='.length), APP_SECRET), false);
    assert.equal(verifyWhatsAppSignature(body, signed(body).slice(0, -2), APP_SECRET), false);
    assert.equal(verifyWhatsAppSignature(body, `sha1=${createHmac('sha1', APP_SECRET).update(body).digest('hex')}`, APP_SECRET), false);
    assert.equal(verifyWhatsAppSignature(body, signed(body), ''), false);
  });
});

describe('parseWhatsAppWebhook', () => {
  it('reads delivery reports from statuses, leaving out what does not fit', () => {
    const { reports, replies } = parseWhatsAppWebhook(statusWebhook);
    assert.deepEqual(replies, []);
    assert.deepEqual(reports, [
      { provider_message_id: 'wamid.SENT', message_id: 'msg-1', status: 'progress' },
      { provider_message_id: 'wamid.DELIVERED', message_id: 'msg-2', status: 'delivered' },
      { provider_message_id: 'wamid.READ', status: 'progress' },
      { provider_message_id: 'wamid.FAILED', status: 'failed', error: '131026 Message undeliverable' },
      { provider_message_id: 'wamid.FAILED2', status: 'failed', error: 'failed' },
    ]);
  });

  it("reads replies (text and a template's quick-reply button) with the sender in E.164", () => {
    const { reports, replies } = parseWhatsAppWebhook(replyWebhook);
    assert.deepEqual(reports, []);
    assert.deepEqual(replies, [
      { channel: 'whatsapp', from: '+919876543210', text: 'STOP' },
      { channel: 'whatsapp', from: '+919812345678', text: 'Stop' },
    ]);
  });

  it('never throws on odd input', () => {
    for (const odd of [null, undefined, 'x', 42, [], {}, { entry: 'x' }, { entry: [null] }, { entry: [{ changes: [{}] }] }, { entry: [{ changes: [{ value: { statuses: 'x' } }] }] }]) {
      assert.deepEqual(parseWhatsAppWebhook(odd), { reports: [], replies: [] });
    }
  });
});

describe('SMS callback tokens', () => {
  const secret = 'callback-secret-0123456789';

  it('verifies the token signed for the message, and nothing else', () => {
    const token = signCallback(secret, 'msg-1');
    assert.match(token, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(verifyCallback(secret, 'msg-1', token), true);
    assert.equal(verifyCallback(secret, 'msg-2', token), false);
    assert.equal(verifyCallback('another-secret-0123456789', 'msg-1', token), false);
    assert.equal(verifyCallback(secret, 'msg-1', `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`), false);
    assert.equal(verifyCallback(secret, 'msg-1', token.slice(1)), false);
    assert.equal(verifyCallback(secret, 'msg-1', ''), false);
  });
});

describe('SMS replies (Exotel inbound)', () => {
  const secret = 'callback-secret-0123456789';

  it("trusts the inbound address's token for this secret only, and never a delivery report's", () => {
    const token = signInboundSmsAddress(secret);
    assert.equal(verifyInboundSmsToken(secret, token), true);
    assert.equal(verifyInboundSmsToken('another-secret-0123456789', token), false);
    assert.equal(verifyInboundSmsToken(secret, signCallback(secret, 'telemed sms inbound')), false);
    assert.equal(verifyInboundSmsToken(secret, undefined), false);
    assert.equal(verifyInboundSmsToken(secret, ''), false);
  });

  it('reads the sender as written and the text, and refuses what is not an inbound SMS', () => {
    assert.deepEqual(parseExotelInboundSms({ SmsSid: 'S1', From: '09052161119', To: '56070', Date: '2026-12-06 10:00:00', Body: 'STOP' }), { from: '09052161119', text: 'STOP' });
    assert.deepEqual(parseExotelInboundSms({ SmsSid: 'S1', From: '+919052161119' }), { from: '+919052161119', text: '' });
    assert.equal(parseExotelInboundSms({ From: '09052161119', Body: 'STOP' }), null);
    assert.equal(parseExotelInboundSms({ SmsSid: 'S1', Body: 'STOP' }), null);
    assert.equal(parseExotelInboundSms({ SmsSid: 'S1', From: '9'.repeat(40), Body: 'STOP' }), null);
    assert.equal(parseExotelInboundSms({ SmsSid: ['S1'], From: {}, Body: 3 }), null);
  });
});

describe('parseExotelStatusCallback', () => {
  const callback = { SmsSid: 'b6aa1b2c3d4e5f60718293a4b5c6d7e8', To: '+919876543210', DateSent: '2026-03-01 10:00:05', SmsUnits: '1', CustomField: 'msg-1' };

  it("maps Exotel's statuses to reports", () => {
    assert.deepEqual(parseExotelStatusCallback({ ...callback, Status: 'delivered', DetailedStatus: 'DELIVERED_TO_HANDSET', DetailedStatusCode: '20005' }), { provider_message_id: callback.SmsSid, message_id: 'msg-1', status: 'delivered' });
    for (const status of ['queued', 'sending', 'submitted', 'sent']) {
      assert.deepEqual(parseExotelStatusCallback({ ...callback, Status: status }), { provider_message_id: callback.SmsSid, message_id: 'msg-1', status: 'progress' });
    }
    assert.deepEqual(parseExotelStatusCallback({ ...callback, Status: 'failed-dnd', DetailedStatus: 'FAILED_DND', DetailedStatusCode: '30006' }), {
      provider_message_id: callback.SmsSid,
      message_id: 'msg-1',
      status: 'failed',
      error: 'failed-dnd: FAILED_DND',
    });
    assert.deepEqual(parseExotelStatusCallback({ ...callback, CustomField: '', Status: 'failed' }), { provider_message_id: callback.SmsSid, status: 'failed', error: 'failed' });
  });

  it('ignores a callback without a Sid, with an unknown status, or naming another message', () => {
    assert.equal(parseExotelStatusCallback({ Status: 'delivered' }), null);
    assert.equal(parseExotelStatusCallback({ ...callback, Status: 'teleported' }), null);
    assert.equal(parseExotelStatusCallback({ ...callback, Status: 'delivered' }, 'msg-2'), null);
    assert.deepEqual(parseExotelStatusCallback({ ...callback, Status: 'delivered' }, 'msg-1'), { provider_message_id: callback.SmsSid, message_id: 'msg-1', status: 'delivered' });
    assert.deepEqual(parseExotelStatusCallback({ SmsSid: callback.SmsSid, Status: 'sent' }, 'msg-3'), { provider_message_id: callback.SmsSid, message_id: 'msg-3', status: 'progress' });
  });
});

describe('isStopReply', () => {
  it('knows STOP, UNSUBSCRIBE and STOP ALL in any case, and रोकें', () => {
    for (const text of ['STOP', 'stop', ' Stop ', 'STOP.', 'unsubscribe', 'Stop all', 'STOP  ALL', 'रोकें', ' रोकें ']) assert.equal(isStopReply(text), true, text);
    for (const text of ['', 'stop by tomorrow?', 'STOPPED', 'please stop', 'hello']) assert.equal(isStopReply(text), false, text);
  });
});
