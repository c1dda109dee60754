import assert from 'node:assert/strict';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { RazorpayGateway } from './razorpay';
import { checkoutSignature, hmacHex, verifyCheckoutSignature, verifyWebhookSignature } from './signatures';
import { PaymentGatewayError } from './port';

describe('Razorpay signatures', () => {
  it('are HMAC-SHA256 as lowercase hex (RFC 4231, test case 2)', () => {
    assert.equal(hmacHex('Jefe', 'what do ya want for nothing?'), '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843');
  });

  it("verify the checkout's signature over order_id|payment_id with the key secret, and nothing else", () => {
    const signature = checkoutSignature('order_9A33XWu170gUtm', 'pay_29QQoUBi66xm2f', 'key-secret');
    assert.equal(signature, hmacHex('key-secret', 'order_9A33XWu170gUtm|pay_29QQoUBi66xm2f'));
    const genuine = { order_id: 'order_9A33XWu170gUtm', payment_id: 'pay_29QQoUBi66xm2f', signature };
    assert.equal(verifyCheckoutSignature(genuine, 'key-secret'), true);
    assert.equal(verifyCheckoutSignature({ ...genuine, order_id: 'order_9A33XWu170gUtn' }, 'key-secret'), false, 'another order');
    assert.equal(verifyCheckoutSignature({ ...genuine, payment_id: 'pay_29QQoUBi66xm2g' }, 'key-secret'), false, 'another payment');
    assert.equal(verifyCheckoutSignature(genuine, 'webhook-secret'), false, 'the webhook secret signs no checkout');
    for (const forged of ['', signature.toUpperCase(), signature.slice(1), `${signature}00`, 'zz'.repeat(32)]) {
      assert.equal(verifyCheckoutSignature({ ...genuine, signature: forged }, 'key-secret'), false, forged);
    }
  });

  it("verify a webhook over its raw bytes with the webhook secret (re-serialised JSON is another body)", () => {
    const raw = Buffer.from('{"event":"payment.captured",  "payload":{"payment":{"entity":{"id":"pay_1","amount":99900}}}}');
    const signature = hmacHex('webhook-secret', raw);
    assert.equal(verifyWebhookSignature(raw, signature, 'webhook-secret'), true);
    assert.equal(verifyWebhookSignature(Buffer.from(JSON.stringify(JSON.parse(raw.toString()))), signature, 'webhook-secret'), false);
    assert.equal(verifyWebhookSignature(raw, signature, 'key-secret'), false);
    assert.equal(verifyWebhookSignature(raw, undefined, 'webhook-secret'), false);
  });
});

/** Razorpay's API as its documentation answers, on this machine: orders and refunds behind basic authentication. */
describe('Razorpay gateway against a server speaking its API', () => {
  const asked: Array<{ method: string; url: string; auth: string | undefined; body: Record<string, unknown> }> = [];
  let answer: (url: string, body: Record<string, unknown>) => { status: number; body: unknown };
  const server = createServer(async (req: IncomingMessage, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const body = JSON.parse(raw || '{}') as Record<string, unknown>;
    asked.push({ method: req.method!, url: req.url!, auth: req.headers.authorization, body });
    const { status, body: out } = answer(req.url!, body);
    res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(out));
  });
  let gateway: RazorpayGateway;
  before(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    gateway = new RazorpayGateway({ keyId: 'rzp_test_key', keySecret: 'key-secret', webhookSecret: 'webhook-secret', apiUrl: `http://127.0.0.1:${port}/v1` });
  });
  after(() => new Promise((resolve) => server.close(resolve)));

  it('creates an order in paise with basic authentication, and opens the checkout with the key id only', async () => {
    answer = (_url, body) => ({ status: 200, body: { id: 'order_IluGWxBm9U8zJ8', entity: 'order', amount: body.amount, currency: 'INR', receipt: body.receipt, status: 'created' } });
    const order = await gateway.createOrder({ amount_paise: 99_900, receipt: 'pack-100-p1', notes: { credits: '100' } });
    assert.deepEqual(order, { order_id: 'order_IluGWxBm9U8zJ8', amount_paise: 99_900, currency: 'INR' });
    assert.deepEqual(asked.at(-1), {
      method: 'POST',
      url: '/v1/orders',
      auth: `Basic ${Buffer.from('rzp_test_key:key-secret').toString('base64')}`,
      body: { amount: 99_900, currency: 'INR', receipt: 'pack-100-p1', notes: { credits: '100' } },
    });
    assert.deepEqual(gateway.checkout(order), { kind: 'razorpay', key_id: 'rzp_test_key', order_id: 'order_IluGWxBm9U8zJ8', amount_paise: 99_900 });
  });

  it('refuses an order answered for another amount, and says whether a refusal is worth retrying', async () => {
    answer = () => ({ status: 200, body: { id: 'order_X', amount: 1 } });
    await assert.rejects(gateway.createOrder({ amount_paise: 99_900, receipt: 'r', notes: {} }), (e: unknown) => e instanceof PaymentGatewayError && e.permanent);
    answer = () => ({ status: 400, body: { error: { code: 'BAD_REQUEST_ERROR', description: 'The amount must be at least INR 1.00' } } });
    await assert.rejects(gateway.createOrder({ amount_paise: 99_900, receipt: 'r', notes: {} }), (e: unknown) => e instanceof PaymentGatewayError && e.permanent && e.message === 'razorpay refused: BAD_REQUEST_ERROR');
    answer = () => ({ status: 503, body: {} });
    await assert.rejects(gateway.createOrder({ amount_paise: 99_900, receipt: 'r', notes: {} }), (e: unknown) => e instanceof PaymentGatewayError && !e.permanent);
  });

  it('refunds a payment by its id, in paise', async () => {
    answer = (_url, body) => ({ status: 200, body: { id: 'rfnd_FP8QHiV938haTz', entity: 'refund', amount: body.amount, payment_id: 'pay_29QQoUBi66xm2f', status: 'processed' } });
    assert.deepEqual(await gateway.refund({ payment_id: 'pay_29QQoUBi66xm2f', amount_paise: 50_000, receipt: 'refund-1' }), { refund_id: 'rfnd_FP8QHiV938haTz', amount_paise: 50_000 });
    assert.deepEqual([asked.at(-1)?.url, asked.at(-1)?.body], ['/v1/payments/pay_29QQoUBi66xm2f/refund', { amount: 50_000, receipt: 'refund-1', speed: 'normal' }]);
  });

  it('an unreachable API is a failure worth retrying', async () => {
    const unreachable = new RazorpayGateway({ keyId: 'k', keySecret: 's', webhookSecret: 'w', apiUrl: 'http://127.0.0.1:9/v1', timeoutMs: 2000 });
    await assert.rejects(unreachable.createOrder({ amount_paise: 100, receipt: 'r', notes: {} }), (e: unknown) => e instanceof PaymentGatewayError && !e.permanent);
  });
});
