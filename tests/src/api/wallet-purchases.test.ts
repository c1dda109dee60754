import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import supertest from 'supertest';
import { PDFParse } from 'pdf-parse';
import { binaryBody } from '../support/binary-body';
import { MAX_ORDERS_PER_HOUR, STARTING_CREDITS, streams } from '@telemed/contracts';
import { checkoutSignature, hmacHex } from '@telemed/platform';
import { handleCommand, systemContext, walletDecider } from '@telemed/command';
import { createLogger } from '@telemed/platform';
import { indiaDate, startTestApp, type TestApp, type TestUser } from '../support/test-app';
import { logLines } from '../support/log-lines';
import { eventually } from '../support/eventually';

/**
 * Buying packs (issue 36) at the local test gateway the product serves outside production, over real HTTP: the
 * checkout page, the patient's return with the checkout's signature, and the gateway's signed webhooks delivered to
 * the product's own address. Credits are added only for a payment the gateway captured, once.
 */
describe('buying packs', () => {
  let t: TestApp;
  let base: string;
  let secrets: { key_secret: string; webhook_secret: string };
  before(async () => {
    t = await startTestApp({ env: { STARTING_CREDITS: String(STARTING_CREDITS), BUSINESS_NAME: 'Sunrise Telehealth', BUSINESS_ADDRESS: '12 MG Road, Bengaluru 560001', BUSINESS_GSTIN: '29ABCDE1234F1Z5' } });
    const port = await t.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${port}`;
    secrets = JSON.parse(readFileSync(join(t.dataDir, 'payments-local-gateway.json'), 'utf8')) as typeof secrets;
  });
  after(() => t.close());

  const balanceOf = async (user: TestUser) => (await t.http.get('/api/v1/wallet/me').set(user.auth).expect(200)).body.balance as number;
  const order = async (user: TestUser, credits = 100) => {
    const res = await t.http.post('/api/v1/wallet/orders').set(user.auth).send({ credits }).expect(201);
    return res.body as { order_id: string; credits: number; amount_paise: number; checkout: { kind: string; url: string } };
  };
  /** The tester's choice on the checkout page; the page sends the browser back with what happened in the query. */
  const atCheckout = async (url: string, choice: 'pay' | 'fail' | 'cancel') => {
    const res = await supertest(base).post(`${url}/${choice}`).expect(303);
    return new URL(res.headers.location!, base).searchParams;
  };
  const signedWebhook = (body: object, secret = secrets.webhook_secret) => {
    const raw = JSON.stringify(body);
    return supertest(base).post('/api/v1/payments/webhook').set('Content-Type', 'application/json').set('X-Razorpay-Signature', hmacHex(secret, raw)).send(raw);
  };
  const captured = (orderId: string, paymentId: string, amount: number) => ({
    entity: 'event',
    event: 'payment.captured',
    payload: { payment: { entity: { id: paymentId, order_id: orderId, amount, currency: 'INR', status: 'captured' } } },
  });

  it('a pack paid at the checkout adds its credits once, whether the page or the webhook tells first, however often', async () => {
    const patient = await t.createUser('patient');
    const placed = await order(patient, 200);
    assert.deepEqual([placed.credits, placed.amount_paise, placed.checkout.kind], [200, 189_900, 'local']);
    const page = await supertest(base).get(placed.checkout.url).expect(200);
    assert.match(page.text, /₹1899\.00/);

    const back = await atCheckout(placed.checkout.url, 'pay');
    assert.equal(back.get('pack_order'), placed.order_id);
    const confirm = { payment_id: back.get('payment_id'), signature: back.get('signature') };
    const paid = await t.http.post(`/api/v1/wallet/orders/${placed.order_id}/payment`).set(patient.auth).send(confirm).expect(200);
    assert.deepEqual(paid.body, { order_id: placed.order_id, status: 'paid', credits: 200 });
    // The gateway's own webhook arrives too (delivered to this address), and the page may ask again: still once.
    await eventually(async () => assert.equal((await t.app.eventStore.readStream(streams.wallet(patient.user_id))).filter((e) => e.type === 'CreditsBought').length, 1));
    await t.http.post(`/api/v1/wallet/orders/${placed.order_id}/payment`).set(patient.auth).send(confirm).expect(200);
    await signedWebhook(captured(placed.order_id, confirm.payment_id!, 189_900)).expect(200);
    // The order is paid: its checkout takes no other payment, and another capture of it adds no second pack.
    await supertest(base).post(`${placed.checkout.url}/pay`).expect(409);
    await signedWebhook(captured(placed.order_id, 'pay_second0001', 189_900)).expect(200);
    await t.settle();
    assert.equal(await balanceOf(patient), STARTING_CREDITS + 200);
    const statement = (await t.http.get('/api/v1/wallet/me/entries').set(patient.auth).expect(200)).body as Array<{ kind: string; credits: number; amount_paise: number | null; payment_id: string | null }>;
    assert.deepEqual(statement.filter((e) => e.kind === 'bought').map((e) => [e.credits, e.amount_paise, e.payment_id]), [[200, 189_900, confirm.payment_id]]);

    // Its receipt: the seller, the pack, the amount and the payment's id, in the patient's language beside English.
    await t.http.put('/api/v1/users/me').set(patient.auth).send({ language: 'hi' }).expect(200);
    await t.settle();
    const receipt = await t.http.get(`/api/v1/wallet/me/receipts/${confirm.payment_id}`).set(patient.auth).buffer(true).parse(binaryBody).expect(200);
    assert.equal(receipt.headers['content-type'], 'application/pdf');
    const text = (await new PDFParse({ data: new Uint8Array(receipt.body as Buffer) }).getText()).text;
    // (Extractors read shaped Devanagari in visual order, a pre-base vowel sign first: only whole words without one are looked for.)
    for (const expected of ['Sunrise Telehealth', '12 MG Road, Bengaluru', 'GSTIN: 29ABCDE1234F1Z5', 'Receipt / रसीद', 'Item /', '200 credits / 200', 'Amount paid /', 'INR 1899.00', confirm.payment_id!]) {
      assert.ok(text.includes(expected), `${expected} in: ${text}`);
    }
    // Nobody else's, and no receipt for what was not bought.
    const other = await t.createUser('patient');
    await t.http.get(`/api/v1/wallet/me/receipts/${confirm.payment_id}`).set(other.auth).expect(404);
    await t.http.get('/api/v1/wallet/me/receipts/pay_none').set(patient.auth).expect(404);
  });

  it("the browser's word adds nothing: a forged signature, another patient's order, a payment of another order", async () => {
    const [patient, other] = [await t.createUser('patient'), await t.createUser('patient')];
    const placed = await order(patient);
    const back = await atCheckout(placed.checkout.url, 'pay');
    const payment_id = back.get('payment_id')!;
    const forged = await t.http.post(`/api/v1/wallet/orders/${placed.order_id}/payment`).set(patient.auth).send({ payment_id, signature: 'a'.repeat(64) }).expect(400);
    assert.equal(forged.body.code, 'payment_signature_invalid');
    // Signed with the right formula but not the gateway's secret.
    await t.http.post(`/api/v1/wallet/orders/${placed.order_id}/payment`).set(patient.auth).send({ payment_id, signature: checkoutSignature(placed.order_id, payment_id, 'guessed') }).expect(400);
    const theirs = await t.http.post(`/api/v1/wallet/orders/${placed.order_id}/payment`).set(other.auth).send({ payment_id, signature: back.get('signature') }).expect(404);
    assert.equal(theirs.body.code, 'order_not_found');
    // Another order of the same patient, unpaid, with the first order's payment: its signature names the first order.
    const unpaid = await order(patient);
    await t.http.post(`/api/v1/wallet/orders/${unpaid.order_id}/payment`).set(patient.auth).send({ payment_id, signature: back.get('signature') }).expect(400);
    await t.http.get('/api/v1/wallet/me').set(other.auth).expect(200);
    await t.settle();
    assert.equal(await balanceOf(other), STARTING_CREDITS);
  });

  it('webhooks: a forged or unsigned one is refused and adds nothing; one for another amount or an unknown order adds nothing', async () => {
    const patient = await t.createUser('patient');
    const placed = await order(patient, 500);
    const forged = await signedWebhook(captured(placed.order_id, 'pay_forged0001', 449_900), 'not-the-secret').expect(401);
    assert.equal(forged.body.code, 'unauthenticated');
    await supertest(base).post('/api/v1/payments/webhook').send(captured(placed.order_id, 'pay_forged0002', 449_900)).expect(401);
    await signedWebhook(captured(placed.order_id, 'pay_cheaper0001', 100)).expect(200);
    await signedWebhook(captured('order_notours0001', 'pay_elsewhere01', 449_900)).expect(200);
    // Signed but not one the product acts on (no order): answered 2xx, so the gateway does not retry it for a day.
    await signedWebhook({ event: 'payment.captured', payload: { payment: { entity: { id: 'pay_noorder01', order_id: null, amount: 449_900, currency: 'INR' } } } }).expect(200);
    await t.settle();
    assert.equal(await balanceOf(patient), STARTING_CREDITS);
    const events = await t.app.eventStore.readStream(streams.wallet(patient.user_id));
    assert.deepEqual(events.map((e) => e.type), []);
  });

  it('a failed payment adds nothing and is recorded once on its order; an abandoned checkout leaves the order unpaid', async () => {
    const patient = await t.createUser('patient');
    const placed = await order(patient);
    const failed = await atCheckout(placed.checkout.url, 'fail');
    assert.equal(failed.get('payment'), 'failed');
    await eventually(async () => assert.deepEqual((await t.app.eventStore.readStream(streams.packOrder(placed.order_id))).map((e) => e.type), ['PackOrdered', 'PackPaymentFailed']));
    const abandoned = await order(patient);
    assert.equal((await atCheckout(abandoned.checkout.url, 'cancel')).get('payment'), 'cancelled');
    await t.settle();
    assert.equal(await balanceOf(patient), STARTING_CREDITS);
    assert.deepEqual((await t.app.eventStore.readStream(streams.packOrder(abandoned.order_id))).map((e) => e.type), ['PackOrdered']);
  });

  it("the checkout sends the patient back to the booking they were making, and never to another site", async () => {
    const patient = await t.createUser('patient');
    const res = await t.http.post('/api/v1/wallet/orders').set(patient.auth).send({ credits: 100, return_to: '/confirm?doctor=d1&slot=7' }).expect(201);
    const url = res.body.checkout.url as string;
    const paid = await supertest(base).post(`${url.replace('?', '/pay?')}`).expect(303);
    assert.match(paid.headers.location!, /^\/confirm\?doctor=d1&slot=7&pack_order=order_[\w-]+&payment_id=pay_[\w-]+&signature=[0-9a-f]{64}$/);
    for (const elsewhere of ['//evil.example/x', 'https://evil.example/', '/\\evil.example', 'home', '/home#x']) {
      const refused = await t.http.post('/api/v1/wallet/orders').set(patient.auth).send({ credits: 100, return_to: elsewhere }).expect(422);
      assert.equal(refused.body.code, 'validation_failed', elsewhere);
    }
    // Typed into the gateway's own address, another site is not followed: the patient goes home.
    const order_id = res.body.order_id as string;
    const cancelled = await supertest(base).post(`/payments/local/checkout/${order_id}/cancel?return_to=${encodeURIComponent('//evil.example/x')}`).expect(303);
    assert.equal(cancelled.headers.location, `/home?pack_order=${order_id}&payment=cancelled`);
  });

  it('an operator refunds what is left of a pack, for its share of the price; the gateway\'s word of it counts once; a dashboard refund too', async () => {
    const [admin, patient, doctor] = [await t.createUser('admin'), await t.createUser('patient'), await t.createUser('doctor', { doctor: { consultation_fee: 450 } })];
    const pay = async (credits: number) => {
      const placed = await order(patient, credits);
      const back = await atCheckout(placed.checkout.url, 'pay');
      await t.http.post(`/api/v1/wallet/orders/${placed.order_id}/payment`).set(patient.auth).send({ payment_id: back.get('payment_id'), signature: back.get('signature') }).expect(200);
      return { order_id: placed.order_id, payment_id: back.get('payment_id')! };
    };
    const big = await pay(500);
    // 450 of the 600 are held for a request: 150 are left to refund.
    const [slot] = await t.openSlots(doctor, [{ date: indiaDate(2), time: '10:00' }]);
    await t.http.post('/api/v1/appointments').set(patient.auth).send({ slot_id: slot, notes: 'Rash' }).expect(201);
    const refund = (payment_id: string, by: TestUser = admin) => t.http.post(`/api/v1/admin/wallets/${patient.user_id}/refunds`).set(by.auth).send({ payment_id });
    await refund(big.payment_id, patient).expect(403);
    const refunded = await refund(big.payment_id).expect(201);
    assert.deepEqual({ ...refunded.body, refund_id: undefined }, { payment_id: big.payment_id, refund_id: undefined, amount_paise: 134_970, credits: 150 });
    // The gateway's own refund.processed webhook comes too: the same refund, taken once.
    await eventually(async () => assert.equal((await t.app.eventStore.readStream(streams.wallet(patient.user_id))).filter((e) => e.type === 'PackRefunded').length, 1));
    await t.settle();
    assert.equal(await balanceOf(patient), 0);
    assert.equal((await refund(big.payment_id).expect(409)).body.code, 'nothing_to_refund');
    assert.equal((await refund('pay_unknown01').expect(404)).body.code, 'purchase_not_found');

    // A refund made in the gateway's dashboard, told by its signed webhook (twice): taken once, as far as the balance goes.
    const small = await pay(100);
    const dashboard = {
      event: 'refund.processed',
      payload: { refund: { entity: { id: 'rfnd_dashboard01', payment_id: small.payment_id, amount: 99_900 } }, payment: { entity: { id: small.payment_id, order_id: small.order_id, amount: 99_900, currency: 'INR' } } },
    };
    await signedWebhook(dashboard).expect(200);
    await signedWebhook(dashboard).expect(200);
    await t.settle();
    assert.equal(await balanceOf(patient), 0);
    const refunds = (await t.app.eventStore.readStream(streams.wallet(patient.user_id))).filter((e) => e.type === 'PackRefunded').map((e) => e.data as { refund_id: string; credits: number; uncovered_credits: number });
    assert.deepEqual(refunds.at(-1), { ...refunds.at(-1), refund_id: 'rfnd_dashboard01', credits: 100, uncovered_credits: 0 });
    const statement = (await t.http.get('/api/v1/wallet/me/entries?limit=3').set(patient.auth).expect(200)).body as Array<{ kind: string; credits: number }>;
    assert.deepEqual(statement[0], { ...statement[0], kind: 'refunded', credits: -100 });
  });

  it("the reconciliation lists the gateway's payments against the wallets' credits, for platform admins only", async () => {
    const [admin, patient] = [await t.createUser('admin'), await t.createUser('patient')];
    const placed = await order(patient);
    const back = await atCheckout(placed.checkout.url, 'pay');
    await t.http.post(`/api/v1/wallet/orders/${placed.order_id}/payment`).set(patient.auth).send({ payment_id: back.get('payment_id'), signature: back.get('signature') }).expect(200);
    // A pack credited for a payment the gateway never took (here written straight to the wallet).
    await handleCommand(t.app.eventStore, streams.wallet(patient.user_id), walletDecider, {
      type: 'RecordPurchase',
      data: { patient_id: patient.user_id, order_id: 'order_ghost01', payment_id: 'pay_ghost0001', credits: 100, amount_paise: 99_900, gateway: 'local' },
    }, systemContext(new Date(), null));
    await t.settle();
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Kolkata' }).format(new Date());
    const report = (await t.http.get(`/api/v1/admin/payments/reconciliation?from=${today}&to=${today}`).set(admin.auth).expect(200)).body as {
      matched: number;
      gateway_only: Array<{ payment_id: string }>;
      wallet_only: Array<{ payment_id: string; patient_id: string }>;
    };
    assert.ok(report.matched >= 1, 'the paid pack matches');
    assert.deepEqual(report.wallet_only.map((w) => [w.payment_id, w.patient_id]), [['pay_ghost0001', patient.user_id]]);
    assert.equal(report.gateway_only.some((g) => g.payment_id === back.get('payment_id')), false);
    await t.http.get(`/api/v1/admin/payments/reconciliation?from=${today}&to=${today}`).set(patient.auth).expect(403);
    assert.equal((await t.http.get('/api/v1/admin/payments/reconciliation?from=2030-01-10&to=2030-01-01').set(admin.auth).expect(422)).body.code, 'reconciliation_window');
    await t.http.get('/api/v1/admin/payments/reconciliation?from=2030-01-01&to=2030-03-01').set(admin.auth).expect(422);
  });

  it('only patients buy, and only the packs on sale', async () => {
    const [doctor, patient] = [await t.createUser('doctor'), await t.createUser('patient')];
    await t.http.post('/api/v1/wallet/orders').set(doctor.auth).send({ credits: 100 }).expect(403);
    await t.http.post('/api/v1/wallet/orders').send({ credits: 100 }).expect(401);
    for (const credits of [0, 150, -100, 100.5, '100']) {
      const res = await t.http.post('/api/v1/wallet/orders').set(patient.auth).send({ credits }).expect(422);
      assert.equal(res.body.code, 'validation_failed', String(credits));
    }
    await t.http.post('/api/v1/wallet/orders/order_none/payment').set(patient.auth).send({ payment_id: 'pay_x', signature: 'y' }).expect(404);
    // Each order is one at the gateway and a stream in the log: a patient may open so many an hour.
    const eager = await t.createUser('patient');
    for (let i = 0; i < MAX_ORDERS_PER_HOUR; i += 1) await t.http.post('/api/v1/wallet/orders').set(eager.auth).send({ credits: 100 }).expect(201);
    const refused = await t.http.post('/api/v1/wallet/orders').set(eager.auth).send({ credits: 100 }).expect(429);
    assert.equal(refused.body.code, 'too_many_orders');
    await t.http.post('/api/v1/wallet/orders').set(patient.auth).send({ credits: 100 }).expect(201);
  });
});

describe('what a payment leaves behind', () => {
  it("no payer's detail the gateway sends (UPI address, card, e-mail, phone) is stored or logged: ids and amounts only", async () => {
    const { lines, destination } = logLines();
    const t = await startTestApp({ env: { STARTING_CREDITS: String(STARTING_CREDITS) }, logger: createLogger({ level: 'debug', destination }) });
    try {
      const base = `http://127.0.0.1:${await t.app.listen(0, '127.0.0.1')}`;
      const { webhook_secret } = JSON.parse(readFileSync(join(t.dataDir, 'payments-local-gateway.json'), 'utf8')) as { webhook_secret: string };
      const patient = await t.createUser('patient');
      const order = (await t.http.post('/api/v1/wallet/orders').set(patient.auth).send({ credits: 100 }).expect(201)).body as { order_id: string };
      // As Razorpay's payment entity carries them.
      const payer = { vpa: 'priya.secret@okhdfc', email: 'priya.secret@example.in', contact: '+919812398123', card: { last4: '4242', network: 'Visa', name: 'PRIYA SECRETNAME' }, bank: 'HDFC' };
      const raw = JSON.stringify({ event: 'payment.captured', payload: { payment: { entity: { id: 'pay_detail0001', order_id: order.order_id, amount: 99_900, currency: 'INR', status: 'captured', method: 'upi', ...payer } } } });
      await supertest(base).post('/api/v1/payments/webhook').set('Content-Type', 'application/json').set('X-Razorpay-Signature', hmacHex(webhook_secret, raw)).send(raw).expect(200);
      await t.settle();
      assert.equal((await t.http.get('/api/v1/wallet/me').set(patient.auth).expect(200)).body.balance, STARTING_CREDITS + 100);
      const stored = readdirSync(t.dataDir).filter((name) => !name.endsWith('.json')).map((name) => { try { return readFileSync(join(t.dataDir, name)).toString('latin1'); } catch { return ''; } }).join('');
      const logged = lines.join('');
      // (The card's last four digits are too short to look for in binary files: the card's name stands for it.)
      for (const secret of ['priya.secret', '9812398123', 'SECRETNAME', 'okhdfc']) {
        assert.equal(stored.includes(secret), false, `${secret} is not in the data directory`);
        assert.equal(logged.includes(secret), false, `${secret} is not in the logs`);
      }
    } finally {
      await t.close();
    }
  });
});
