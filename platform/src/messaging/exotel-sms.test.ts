import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createExotelSmsSender, dltTemplateId, isGsm7, type ExotelSmsOptions } from './exotel-sms';
import { closedPort, providerServer, sampleMessage, type Answer, type RecordedRequest } from './messaging.test-support';
import { ChannelSendError } from './port';

const PATH = '/v1/Accounts/acme1/Sms/send.json';
const templateIds = { appointment_reminder: '1107160000000012345', 'appointment_reminder.hi': '1107160000000054321', sign_in_code: '1107160000000099999' };

function smsMessage(overrides: Parameters<typeof sampleMessage>[0] = {}) {
  return sampleMessage({ channel: 'sms', to: '+919876543210', idempotency_key: 'appointment-42:appointment_reminder:60:sms', ...overrides });
}

/** Exotel's answer to an accepted send, as its API documents it. */
function queued(request: RecordedRequest): Answer {
  const form = new URLSearchParams(request.body);
  return {
    status: 200,
    body: {
      SMSMessage: {
        Sid: 'b6aa1b2c3d4e5f60718293a4b5c6d7e8',
        AccountSid: 'acme1',
        From: `/v1/Accounts/acme1/Sms/${form.get('From')}`,
        To: form.get('To'),
        DateCreated: '2026-03-01 10:00:00',
        DateUpdated: '2026-03-01 10:00:00',
        DateSent: null,
        Body: form.get('Body'),
        Direction: 'outbound-api',
        Uri: '/v1/Accounts/acme1/Sms/Messages/b6aa1b2c3d4e5f60718293a4b5c6d7e8.json',
        ApiVersion: null,
        Price: null,
        Status: 'queued',
        DetailedStatusCode: 21010,
        DetailedStatus: 'PENDING_TO_OPERATOR',
        SmsUnits: null,
      },
    },
  };
}

describe('Exotel SMS sender', () => {
  let answer: (request: RecordedRequest) => Answer | null = queued;
  let exotel: Awaited<ReturnType<typeof providerServer>>;
  let options: ExotelSmsOptions;
  before(async () => {
    exotel = await providerServer((request) => answer(request));
    options = {
      url: `${exotel.origin}${PATH}`,
      key: 'apikey123:apitoken456',
      senderId: 'TLMEDC',
      entityId: '1201160000000011111',
      templateIds,
      callbackUrl: (id) => `https://telemed.example.in/api/v1/messaging/sms/status?message=${id}&token=t0k`,
    };
  });
  after(async () => {
    await exotel.close();
  });

  it("posts Exotel's documented form with basic authentication and answers with the Sid", async () => {
    answer = queued;
    const sender = createExotelSmsSender(options);
    assert.equal(sender.channel, 'sms');
    assert.equal(sender.provider, 'exotel');
    const message = smsMessage({ text: 'Your consultation with Dr. Rao starts at 10:30. Join: https://telemed.example.in/a/42' });
    const result = await sender.send(message);
    assert.deepEqual(result, { provider_message_id: 'b6aa1b2c3d4e5f60718293a4b5c6d7e8' });
    const request = exotel.requests.at(-1);
    assert.ok(request);
    assert.equal(request.method, 'POST');
    assert.equal(request.path, PATH);
    assert.equal(request.headers.authorization, `Basic ${Buffer.from('apikey123:apitoken456').toString('base64')}`);
    assert.equal(request.headers['content-type'], 'application/x-www-form-urlencoded');
    assert.deepEqual(Object.fromEntries(new URLSearchParams(request.body)), {
      From: 'TLMEDC',
      To: '+919876543210',
      Body: message.text,
      DltEntityId: '1201160000000011111',
      DltTemplateId: '1107160000000012345',
      SmsType: 'transactional',
      StatusCallback: 'https://telemed.example.in/api/v1/messaging/sms/status?message=msg-1&token=t0k',
      CustomField: 'msg-1',
    });
  });

  it("sends a text outside GSM-7 as unicode, with the language's own template", async () => {
    answer = queued;
    const sender = createExotelSmsSender(options);
    await sender.send(smsMessage({ language: 'hi', text: 'डॉ. राव के साथ आपका परामर्श 10:30 बजे है।' }));
    const form = new URLSearchParams(exotel.requests.at(-1)?.body);
    assert.equal(form.get('EncodingType'), 'unicode');
    assert.equal(form.get('DltTemplateId'), '1107160000000054321');
    assert.equal(form.get('Body'), 'डॉ. राव के साथ आपका परामर्श 10:30 बजे है।');
  });

  it('leaves DltEntityId out when none is configured, and takes the key from a URL with credentials in it', async () => {
    answer = queued;
    const withCredentials = `${exotel.origin.replace('http://', 'http://apikey123:apitoken456@')}${PATH}`;
    const sender = createExotelSmsSender({ ...options, url: withCredentials, entityId: null });
    await sender.send(smsMessage());
    const request = exotel.requests.at(-1);
    assert.equal(request?.path, PATH);
    assert.equal(new URLSearchParams(request?.body).has('DltEntityId'), false);
  });

  it('refuses for good a kind with no DLT template, without asking Exotel', async () => {
    const before = exotel.requests.length;
    const sender = createExotelSmsSender(options);
    await assert.rejects(sender.send(smsMessage({ kind: 'prescription_ready' })), (error: unknown) => error instanceof ChannelSendError && error.permanent && /prescription_ready/.test(error.message));
    assert.equal(exotel.requests.length, before);
  });

  it('maps a 4xx refusal to permanent (the number not in the error) and 429, 5xx, a timeout or a dead server to retry', async () => {
    const sender = createExotelSmsSender({ ...options, timeoutMs: 300 });
    answer = () => ({ status: 400, body: { RestException: { Status: 400, Message: 'Invalid To number +919876543210', Code: 34001 } } });
    await assert.rejects(sender.send(smsMessage()), (error: unknown) => {
      assert.ok(error instanceof ChannelSendError);
      assert.equal(error.permanent, true);
      assert.match(error.message, /^exotel 400: Invalid To number/);
      assert.doesNotMatch(error.message, /9876543210/);
      return true;
    });
    for (const status of [429, 500, 503]) {
      answer = () => ({ status, body: { RestException: { Status: status, Message: 'Try again' } } });
      await assert.rejects(sender.send(smsMessage()), (error: unknown) => error instanceof ChannelSendError && !error.permanent && error.message.startsWith(`exotel ${status}`));
    }
    answer = () => ({ status: 200, body: { unexpected: true } });
    await assert.rejects(sender.send(smsMessage()), (error: unknown) => error instanceof ChannelSendError && !error.permanent);
    answer = () => null;
    await assert.rejects(sender.send(smsMessage()), (error: unknown) => error instanceof ChannelSendError && !error.permanent && /timed out/.test(error.message));
    const dead = createExotelSmsSender({ ...options, url: `http://127.0.0.1:${await closedPort()}${PATH}` });
    await assert.rejects(dead.send(smsMessage()), (error: unknown) => error instanceof ChannelSendError && !error.permanent && /unreachable/.test(error.message));
  });
});

describe('SMS helpers', () => {
  it('tells GSM-7 text from text that needs unicode', () => {
    assert.equal(isGsm7('Code 123456, valid 5 min. Café €5 [ok] {x}'), true);
    assert.equal(isGsm7('आपका कोड 123456'), false);
    assert.equal(isGsm7('curly ’quote’'), false);
    assert.equal(isGsm7('back`tick'), false);
  });

  it("picks the language's template before the kind's", () => {
    assert.equal(dltTemplateId(templateIds, { kind: 'appointment_reminder', language: 'hi' }), '1107160000000054321');
    assert.equal(dltTemplateId(templateIds, { kind: 'appointment_reminder', language: 'ta' }), '1107160000000012345');
    assert.equal(dltTemplateId(templateIds, { kind: 'appointment_approved', language: 'en' }), null);
  });
});
