import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { SMTPServer } from 'smtp-server';
import { streams } from '@telemed/contracts';
import { messageIdFor } from '@telemed/command';
import { signInboundSmsAddress } from '@telemed/platform';
import { providerServer, type RecordedRequest } from '../../../platform/src/messaging/messaging.test-support';
import { startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { apiSpec, type ApiSpec } from '../support/api-spec';
import { eventually } from '../support/eventually';

const APP_SECRET = 'whatsapp-app-secret-for-tests';

/** A real SMTP server in this process, keeping what it receives. */
async function smtpServer() {
  const received: Array<{ to: string[]; raw: string }> = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    // No DNS here: a reverse lookup of 127.0.0.1 would only wait for its timeout.
    disableReverseLookup: true,
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return { port: address.port, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/**
 * Messages through the real adapters (issue 34): e-mail to an SMTP server in the process, SMS and WhatsApp to local
 * servers that answer as Exotel's and Meta's documented APIs do; their callbacks reach the app and are trusted only
 * when verified.
 */
describe('messages through SMTP, the SMS provider and WhatsApp Cloud', () => {
  let t: TestApp;
  let spec: ApiSpec;
  let smtp: Awaited<ReturnType<typeof smtpServer>>;
  let exotel: Awaited<ReturnType<typeof providerServer>>;
  let whatsapp: Awaited<ReturnType<typeof providerServer>>;
  let sms = 0;
  let wa = 0;
  // Midday in India, so no message waits for quiet hours to end.
  const midday = new Date();
  midday.setUTCHours(6, 30, 0, 0);
  if (midday.getTime() < Date.now() - 6 * 3_600_000) midday.setTime(midday.getTime() + 86_400_000);
  const now = midday;

  before(async () => {
    smtp = await smtpServer();
    exotel = await providerServer(() => ({ status: 200, body: { SMSMessage: { Sid: `SM${++sms}`, Status: 'queued' } } }));
    whatsapp = await providerServer(() => ({ status: 200, body: { messaging_product: 'whatsapp', contacts: [], messages: [{ id: `wamid.${++wa}` }] } }));
    t = await startTestApp({
      clock: () => now,
      env: {
        PUBLIC_URL: 'https://telemed.example.in',
        SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
        MAIL_FROM: 'Telemed <no-reply@telemed.example.in>',
        SMS_API_URL: `${exotel.origin}/v1/Accounts/telemed/Sms/send.json`,
        SMS_API_KEY: 'key:token',
        SMS_SENDER_ID: 'TLMEDC',
        SMS_DLT_ENTITY_ID: '1101000000000000001',
        SMS_TEMPLATE_IDS: JSON.stringify({ sign_in_code: '1107000000000000001', phone_verification_code: '1107000000000000003', appointment_approved: '1107000000000000002' }),
        WHATSAPP_API_URL: whatsapp.origin,
        WHATSAPP_TOKEN: 'whatsapp-token',
        WHATSAPP_PHONE_NUMBER_ID: '1234567890',
        WHATSAPP_APP_SECRET: APP_SECRET,
        WHATSAPP_VERIFY_TOKEN: 'verify-me-please',
        MESSAGING_CALLBACK_SECRET: 'callback-secret-for-tests-only',
      },
    });
    spec = apiSpec(t);
  });
  after(async () => {
    await t.close();
    await Promise.all([smtp.close(), exotel.close(), whatsapp.close()]);
  });

  const form = (request: RecordedRequest) => new URLSearchParams(request.body);
  const lastSmsTo = (phone: string) => [...exotel.requests].reverse().find((r) => form(r).get('To') === phone);
  const messageEvents = async (messageId: string) => (await t.app.eventStore.readStream(streams.message(messageId))).map((e) => e.type);
  const signed = (body: unknown) => {
    const raw = JSON.stringify(body);
    return { raw, signature: `sha256=${createHmac('sha256', APP_SECRET).update(raw).digest('hex')}` };
  };

  /** A patient whose mobile number is verified through the SMS code (read from what the SMS provider was sent). */
  async function patientWithPhone(phone: string): Promise<TestUser> {
    const patient = await spec.given.patient();
    const { challenge } = (await t.http.post('/api/v1/users/me/phone/start').set(patient.auth).send({ phone_number: phone }).expect(200)).body as { challenge: string };
    const body = form(lastSmsTo(phone)!).get('Body')!;
    // Its own text (not a sign-in code's): the person is adding the number to the account they are signed in to.
    assert.match(body, /^Telemed: \d{6} is your code to add this number to your account\./);
    const code = /\b(\d{6})\b/.exec(body)![1]!;
    await t.http.post('/api/v1/users/me/phone/verify').set(patient.auth).send({ phone_number: phone, code, challenge }).expect(200);
    return patient;
  }

  it('sends a sign-in code by SMS with its DLT template and a signed status address; a verified delivery report is recorded, a forged one refused', async () => {
    const phone = '+919812345601';
    const started = await t.http.post('/api/v1/auth/phone/start').send({ phone_number: '98123 45601' });
    assert.equal(started.status, 200, started.text);
    assert.equal(started.body.channel, 'sms');
    const request = lastSmsTo(phone)!;
    assert.equal(request.method, 'POST');
    assert.equal(request.path, '/v1/Accounts/telemed/Sms/send.json');
    assert.equal(request.headers.authorization, `Basic ${Buffer.from('key:token').toString('base64')}`);
    const fields = form(request);
    assert.equal(fields.get('From'), 'TLMEDC');
    assert.equal(fields.get('DltEntityId'), '1101000000000000001');
    assert.equal(fields.get('DltTemplateId'), '1107000000000000001');
    assert.match(fields.get('Body')!, /^Telemed: \d{6} is your sign-in code\./);
    const callback = new URL(fields.get('StatusCallback')!);
    assert.equal(callback.origin + callback.pathname, 'https://telemed.example.in/api/v1/messaging/sms/status');
    const messageId = fields.get('CustomField')!;

    const forged = await t.http.post(`/api/v1/messaging/sms/status?message=${messageId}&token=forged`).type('form').send({ SmsSid: 'SM1', Status: 'delivered', CustomField: messageId });
    assert.equal(forged.status, 401, forged.text);
    assert.ok(!(await messageEvents(messageId)).includes('MessageDelivered'));

    const sid = (await t.app.eventStore.readStream(streams.message(messageId))).find((e) => e.type === 'MessageSent')!.data as { provider_message_id: string };
    const report = await t.http.post(`${callback.pathname}${callback.search}`).type('form').send({ SmsSid: sid.provider_message_id, Status: 'delivered', CustomField: messageId });
    assert.equal(report.status, 200, report.text);
    assert.deepEqual((await messageEvents(messageId)).slice(-1), ['MessageDelivered']);
  });

  it('a patient who chose WhatsApp is sent its template in their language; a failure webhook (signed) moves the message to SMS; a forged one is refused', async () => {
    const phone = '+919812345602';
    const patient = await patientWithPhone(phone);
    await t.http.put('/api/v1/users/me').set(patient.auth).send({ language: 'hi' }).expect(200);
    await t.http.put('/api/v1/users/me/messaging').set(patient.auth).send({ channels: { email: false, sms: true, whatsapp: true }, time_zone: 'Asia/Kolkata' }).expect(200);
    const doctor = await spec.given.doctor({ name: 'Dr. Kavya Rao' });
    const { appointment_id } = await spec.given.appointment({ doctor, patient });

    // The doctor hears of the request by e-mail (their only address), through the SMTP server.
    await eventually(async () => assert.ok(smtp.received.some((mail) => mail.raw.includes('New consultation request'))));

    await t.http.post(`/api/v1/appointments/${appointment_id}/approve`).set(doctor.auth).expect(200);
    const messageId = messageIdFor(`${appointment_id}:appointment_approved:0`);
    await eventually(async () => assert.ok(whatsapp.requests.some((r) => r.body.includes(messageId))));
    const sent = whatsapp.requests.find((r) => r.body.includes(messageId))!;
    assert.equal(sent.path, '/1234567890/messages');
    assert.equal(sent.headers.authorization, 'Bearer whatsapp-token');
    const body = JSON.parse(sent.body) as { to: string; template: { name: string; language: { code: string }; components: Array<{ parameters: Array<{ text: string }> }> } };
    assert.equal(body.to, phone.slice(1));
    assert.equal(body.template.name, 'telemed_appointment_approved');
    assert.equal(body.template.language.code, 'hi');
    assert.equal(body.template.components[0]!.parameters[0]!.text, 'Dr. Kavya Rao');

    // The provider has answered; its id is recorded a moment later (MessageSent).
    await t.settle();
    const sentEvent = (await t.app.eventStore.readStream(streams.message(messageId))).find((e) => e.type === 'MessageSent');
    assert.ok(sentEvent, 'the send was recorded');
    const wamid = (sentEvent.data as { provider_message_id: string }).provider_message_id;
    const failure = { object: 'whatsapp_business_account', entry: [{ id: 'waba', changes: [{ field: 'messages', value: { messaging_product: 'whatsapp', metadata: { phone_number_id: '1234567890' }, statuses: [{ id: wamid, status: 'failed', timestamp: '1700000000', recipient_id: phone.slice(1), biz_opaque_callback_data: messageId, errors: [{ code: 131026, title: 'Message undeliverable' }] }] } }] }] };
    const forged = await t.http.post('/api/v1/messaging/whatsapp/webhook').set('Content-Type', 'application/json').set('X-Hub-Signature-256', 'sha256=00').send(JSON.stringify(failure));
    assert.equal(forged.status, 401);
    const { raw, signature } = signed(failure);
    const accepted = await t.http.post('/api/v1/messaging/whatsapp/webhook').set('Content-Type', 'application/json').set('X-Hub-Signature-256', signature).send(raw);
    assert.equal(accepted.status, 200, accepted.text);
    await eventually(async () => assert.ok(form(lastSmsTo(phone)!).get('CustomField') === messageId, 'the message went on by SMS'));
    assert.equal(form(lastSmsTo(phone)!).get('DltTemplateId'), '1107000000000000002');
    await t.settle();
    const types = await messageEvents(messageId);
    assert.deepEqual(types.filter((type) => type !== 'MessageAttemptStarted'), ['MessageQueued', 'MessageSent', 'MessageFailed', 'MessageSent']);
  });

  it('answers WhatsApp\'s subscription check only with the right token, and a STOP reply ends WhatsApp messages for that number', async () => {
    const challenge = await t.http.get('/api/v1/messaging/whatsapp/webhook').query({ 'hub.mode': 'subscribe', 'hub.verify_token': 'verify-me-please', 'hub.challenge': '1158201444' });
    assert.equal(challenge.status, 200);
    assert.equal(challenge.text, '1158201444');
    const wrong = await t.http.get('/api/v1/messaging/whatsapp/webhook').query({ 'hub.mode': 'subscribe', 'hub.verify_token': 'guess', 'hub.challenge': '1' });
    assert.equal(wrong.status, 403);

    const phone = '+919812345603';
    const patient = await patientWithPhone(phone);
    await t.http.put('/api/v1/users/me/messaging').set(patient.auth).send({ channels: { email: true, sms: true, whatsapp: true } }).expect(200);
    const stop = { object: 'whatsapp_business_account', entry: [{ id: 'waba', changes: [{ field: 'messages', value: { messaging_product: 'whatsapp', metadata: { phone_number_id: '1234567890' }, messages: [{ from: phone.slice(1), id: 'wamid.in1', timestamp: '1700000000', type: 'text', text: { body: 'STOP' } }] } }] }] };
    const { raw, signature } = signed(stop);
    await t.http.post('/api/v1/messaging/whatsapp/webhook').set('Content-Type', 'application/json').set('X-Hub-Signature-256', signature).send(raw).expect(200);
    const preferences = await spec.read((http) => http.get('/api/v1/users/me/messaging').set(patient.auth));
    assert.equal(preferences.status, 200, preferences.text);
    assert.deepEqual(preferences.body.channels, { email: true, sms: true, whatsapp: false });
    assert.deepEqual(preferences.body.available, ['whatsapp', 'sms', 'email']);
  });

  it('an SMS reply of STOP to the business number (Exotel inbound, by GET after a HEAD, or posted) ends SMS for the sender; only with the inbound token', async () => {
    const phone = '+919812345604';
    const patient = await patientWithPhone(phone);
    await t.http.put('/api/v1/users/me/messaging').set(patient.auth).send({ channels: { email: true, sms: true, whatsapp: true } }).expect(200);
    const token = signInboundSmsAddress('callback-secret-for-tests-only');
    const channels = async () => (await spec.read((http) => http.get('/api/v1/users/me/messaging').set(patient.auth))).body.channels;
    // As the operator's network writes the sender: 0-prefixed, no country code.
    const reply = { SmsSid: 'SMin1', From: `0${phone.slice(3)}`, To: '08047112233', Date: '2026-12-06 12:00:00', Body: 'Hello doctor' };

    const forged = await t.http.get('/api/v1/messaging/sms/inbound').query({ ...reply, Body: 'STOP', token: 'guessed' });
    assert.equal(forged.status, 401);
    assert.equal(forged.body.code, 'unauthenticated');
    // The provider's check of the address, with the fields or none: answered, and nothing done (not even a STOP).
    for (const query of [{ token }, { ...reply, Body: 'STOP', token }]) {
      const head = await t.http.head('/api/v1/messaging/sms/inbound').query(query);
      assert.equal(head.status, 200);
      assert.match(head.headers['content-type'] ?? '', /^text\/plain/);
    }
    const chatter = await t.http.get('/api/v1/messaging/sms/inbound').query({ ...reply, token });
    assert.equal(chatter.status, 200);
    assert.equal(chatter.text, '');
    assert.deepEqual(await channels(), { email: true, sms: true, whatsapp: true }, 'a reply that is not STOP changes nothing');

    await t.http.get('/api/v1/messaging/sms/inbound').query({ ...reply, Body: ' stop. ', token }).expect(200);
    assert.deepEqual(await channels(), { email: true, sms: false, whatsapp: true });

    // Posted (the account's inbound webhook): the same, and a number nobody holds is answered without a change.
    await t.http.put('/api/v1/users/me/messaging').set(patient.auth).send({ channels: { email: true, sms: true, whatsapp: true } }).expect(200);
    const posted = await t.http.post(`/api/v1/messaging/sms/inbound?token=${token}`).type('form').send({ ...reply, SmsSid: 'SMin2', From: phone, Body: 'STOP' });
    assert.equal(posted.status, 200, posted.text);
    assert.deepEqual(await channels(), { email: true, sms: false, whatsapp: true });
    await t.http.post(`/api/v1/messaging/sms/inbound?token=${token}`).type('form').send({ ...reply, SmsSid: 'SMin3', From: '+919812349999', Body: 'STOP' }).expect(200);
    const notInbound = await t.http.post(`/api/v1/messaging/sms/inbound?token=${token}`).type('form').send({ Body: 'STOP' });
    assert.equal(notInbound.status, 400);
    const forgedPost = await t.http.post('/api/v1/messaging/sms/inbound?token=guessed').type('form').send({ ...reply, Body: 'STOP' });
    assert.equal(forgedPost.status, 401);
  });
});
