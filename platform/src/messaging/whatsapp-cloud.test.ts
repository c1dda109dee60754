import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { providerServer, sampleMessage, type Answer, type RecordedRequest } from './messaging.test-support';
import { ChannelSendError } from './port';
import { createWhatsAppSender } from './whatsapp-cloud';

function whatsAppMessage(overrides: Parameters<typeof sampleMessage>[0] = {}) {
  return sampleMessage({ channel: 'whatsapp', to: '+919876543210', idempotency_key: 'appointment-42:appointment_reminder:60:whatsapp', ...overrides });
}

/** The Cloud API's answer to an accepted template message, as Meta documents it. */
function accepted(request: RecordedRequest): Answer {
  const to = (JSON.parse(request.body) as { to: string }).to;
  return { status: 200, body: { messaging_product: 'whatsapp', contacts: [{ input: to, wa_id: to }], messages: [{ id: 'wamid.HBgMOTE5ODc2NTQzMjEwFQIAERgSQUIxMjM0', message_status: 'accepted' }] } };
}

function graphError(status: number, code: number, message: string): () => Answer {
  return () => ({ status, body: { error: { message, type: 'OAuthException', code, error_data: { messaging_product: 'whatsapp', details: message }, fbtrace_id: 'AbCdEf' } } });
}

describe('WhatsApp Cloud API sender', () => {
  let answer: (request: RecordedRequest) => Answer | null = accepted;
  let graph: Awaited<ReturnType<typeof providerServer>>;
  let url: string;
  before(async () => {
    graph = await providerServer((request) => answer(request));
    url = `${graph.origin}/v21.0`;
  });
  after(async () => {
    await graph.close();
  });

  it("posts the template message as the Cloud API documents it and answers with the message's wamid", async () => {
    answer = accepted;
    const sender = createWhatsAppSender({ url, token: 'EAAGtoken', phoneNumberId: '106540352242922' });
    assert.equal(sender.channel, 'whatsapp');
    assert.equal(sender.provider, 'whatsapp-cloud');
    const result = await sender.send(whatsAppMessage({ language: 'ta' }));
    assert.deepEqual(result, { provider_message_id: 'wamid.HBgMOTE5ODc2NTQzMjEwFQIAERgSQUIxMjM0' });
    const request = graph.requests.at(-1);
    assert.ok(request);
    assert.equal(request.method, 'POST');
    assert.equal(request.path, '/v21.0/106540352242922/messages');
    assert.equal(request.headers.authorization, 'Bearer EAAGtoken');
    assert.equal(request.headers['content-type'], 'application/json');
    assert.deepEqual(JSON.parse(request.body), {
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '919876543210',
      type: 'template',
      template: {
        name: 'telemed_appointment_reminder',
        language: { code: 'ta' },
        components: [
          {
            type: 'body',
            parameters: [
              { type: 'text', text: 'Dr. Rao' },
              { type: 'text', text: '10:30' },
              { type: 'text', text: 'https://telemed.example.in/appointments/42' },
            ],
          },
        ],
      },
      biz_opaque_callback_data: 'msg-1',
    });
  });

  it('sends a sign-in code as an authentication template: the code in the body and on the copy-code button', async () => {
    answer = accepted;
    const sender = createWhatsAppSender({ url: `${url}/`, token: 'EAAGtoken', phoneNumberId: '106540352242922', templateName: (kind) => `clinic_${kind}_v2` });
    await sender.send(whatsAppMessage({ kind: 'sign_in_code', params: ['482913', '5'], language: 'hi' }));
    const request = graph.requests.at(-1);
    assert.equal(request?.path, '/v21.0/106540352242922/messages');
    const body = JSON.parse(request?.body ?? '{}') as { template: unknown };
    assert.deepEqual(body.template, {
      name: 'clinic_sign_in_code_v2',
      language: { code: 'hi' },
      components: [
        { type: 'body', parameters: [{ type: 'text', text: '482913' }] },
        { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: '482913' }] },
      ],
    });
  });

  it("maps the Graph API's refusals to permanent and its limits, 429, 5xx and odd answers to retry", async () => {
    const sender = createWhatsAppSender({ url, token: 'EAAGtoken', phoneNumberId: '106540352242922', timeoutMs: 300 });
    const cases: Array<[() => Answer | null, boolean, RegExp]> = [
      [graphError(404, 132001, 'Template name does not exist in the translation'), true, /^whatsapp-cloud 404 code 132001: Template name/],
      [graphError(400, 131026, 'Message undeliverable'), true, /131026/],
      [graphError(401, 190, 'Error validating access token'), true, /190/],
      [graphError(400, 131056, '(Business Account, Consumer Account) pair rate limit hit'), false, /131056/],
      [graphError(400, 130429, 'Rate limit hit'), false, /130429/],
      [graphError(429, 80007, 'Rate limit issues'), false, /^whatsapp-cloud 429/],
      [graphError(500, 131000, 'Something went wrong'), false, /^whatsapp-cloud 500/],
      [() => ({ status: 503, body: 'upstream unavailable' }), false, /^whatsapp-cloud 503$/],
      [() => ({ status: 200, body: { messages: [] } }), false, /without messages/],
      [() => null, false, /timed out/],
    ];
    for (const [reply, permanent, message] of cases) {
      answer = reply;
      await assert.rejects(sender.send(whatsAppMessage()), (error: unknown) => {
        assert.ok(error instanceof ChannelSendError);
        assert.equal(error.permanent, permanent, error.message);
        assert.match(error.message, message);
        return true;
      });
    }
  });

  it('keeps a number out of an error that names it', async () => {
    answer = graphError(400, 131009, 'Parameter value is not valid: recipient 919876543210');
    const sender = createWhatsAppSender({ url, token: 'EAAGtoken', phoneNumberId: '106540352242922' });
    await assert.rejects(sender.send(whatsAppMessage()), (error: unknown) => error instanceof ChannelSendError && error.permanent && !/9876543210/.test(error.message));
  });
});
