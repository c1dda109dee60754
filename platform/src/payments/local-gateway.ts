import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import express, { type Router } from 'express';
import { isReturnPath } from '@telemed/contracts';
import { ensurePrivateDirectory } from '../private-files';
import { escapeHtml, standInPage } from '../http/stand-in-page';
import type { Logger } from '../logger';
import type { GatewayOrder, GatewayPayment, GatewayRefund, PaymentGateway } from './port';
import { checkoutSignature, hmacHex, verifyCheckoutSignature, verifyWebhookSignature } from './signatures';

/** Where the local gateway's checkout pages are served. */
export const LOCAL_CHECKOUT_PATH = '/payments/local/checkout';
/** Where the patient is sent back to after the checkout (their home page, with its credits), the outcome in its query. */
export const CHECKOUT_RETURN_PATH = '/home';

interface Delivery {
  event_id: string;
  body: string;
  attempts: number;
  next_at: number;
}

interface State {
  key_secret: string;
  webhook_secret: string;
  /** `paid_by`: the captured payment of an order once paid (as a paid Razorpay order, it takes no other). */
  orders: Record<string, { amount_paise: number; receipt: string; paid_by?: string }>;
  /** Each payment, with when it was made (milliseconds since the epoch). */
  payments: Record<string, GatewayPayment & { at?: number }>;
  refunds: Record<string, GatewayRefund & { payment_id: string }>;
  deliveries: Delivery[];
}

const MAX_BACKOFF_MS = 5 * 60_000;

/**
 * The embedded stand-in for Razorpay (issue 36), never in production: orders, a checkout page where the tester pays,
 * fails or abandons, and the webhooks Razorpay would send, signed the same way and delivered until answered 2xx. Its
 * secrets, orders, payments and undelivered webhooks are kept in the data directory, so a restart loses none of them.
 */
export class LocalTestGateway implements PaymentGateway {
  readonly name = 'local';
  private readonly file: string;
  private state: State;
  private target: string | null = null;
  private timer: NodeJS.Timeout | null = null;
  private delivering = false;
  private closed = false;

  constructor(private readonly options: { dataDir: string; logger: Logger; now?: () => number }) {
    ensurePrivateDirectory(options.dataDir);
    this.file = join(options.dataDir, 'payments-local-gateway.json');
    this.state = existsSync(this.file)
      ? (JSON.parse(readFileSync(this.file, 'utf8')) as State)
      : { key_secret: randomBytes(32).toString('hex'), webhook_secret: randomBytes(32).toString('hex'), orders: {}, payments: {}, refunds: {}, deliveries: [] };
    this.save();
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  private save(): void {
    const temporary = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(this.state), { mode: 0o600 });
    renameSync(temporary, this.file);
  }

  /** Where webhooks go (the product's own webhook route, once it listens); those waiting are sent at once. */
  deliverTo(url: string): void {
    this.target = url;
    this.schedule(0);
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
  }

  async createOrder(input: { amount_paise: number; receipt: string }): Promise<GatewayOrder> {
    const order_id = `order_${randomBytes(10).toString('base64url')}`;
    this.state.orders[order_id] = { amount_paise: input.amount_paise, receipt: input.receipt };
    this.save();
    return { order_id, amount_paise: input.amount_paise, currency: 'INR' };
  }

  checkout(order: GatewayOrder, options: { returnTo?: string } = {}) {
    const back = options.returnTo ? `?${new URLSearchParams({ return_to: options.returnTo }).toString()}` : '';
    return { kind: 'local' as const, url: `${LOCAL_CHECKOUT_PATH}/${encodeURIComponent(order.order_id)}${back}` };
  }

  verifyCheckout(input: { order_id: string; payment_id: string; signature: string }): boolean {
    return verifyCheckoutSignature(input, this.state.key_secret);
  }

  verifyWebhook(rawBody: Buffer, signature: string | undefined): boolean {
    return verifyWebhookSignature(rawBody, signature, this.state.webhook_secret);
  }

  async fetchPayment(paymentId: string): Promise<GatewayPayment | null> {
    const payment = this.state.payments[paymentId];
    if (!payment) return null;
    const { at: _at, ...known } = payment;
    void _at;
    return known;
  }

  async listPayments(window: { from: Date; to: Date }): Promise<GatewayPayment[]> {
    const [from, to] = [window.from.getTime(), window.to.getTime()];
    const within = Object.values(this.state.payments).filter((p) => p.at !== undefined && p.at >= from && p.at <= to);
    return within.map(({ at: _at, ...known }) => (void _at, known));
  }

  async refund(input: { payment_id: string; amount_paise: number }): Promise<GatewayRefund> {
    const payment = this.state.payments[input.payment_id];
    if (!payment || payment.status !== 'captured') throw new Error('The local gateway refunds only a captured payment');
    const refund_id = `rfnd_${randomBytes(10).toString('base64url')}`;
    this.state.refunds[refund_id] = { refund_id, payment_id: input.payment_id, amount_paise: input.amount_paise };
    this.queue('refund.processed', {
      refund: { entity: { id: refund_id, entity: 'refund', payment_id: input.payment_id, amount: input.amount_paise, currency: 'INR', status: 'processed' } },
      payment: { entity: this.entityOf(payment) },
    });
    return { refund_id, amount_paise: input.amount_paise };
  }

  /** The tester paid the order: captured at once (as with automatic capture), the webhook queued, the checkout's word signed. */
  pay(orderId: string): { payment_id: string; signature: string } | null {
    const order = this.state.orders[orderId];
    if (!order || order.paid_by) return null;
    const payment = this.newPayment(orderId, order.amount_paise, 'captured');
    order.paid_by = payment.payment_id;
    this.queue('payment.captured', { payment: { entity: { ...this.entityOf(payment), captured: true } } });
    return { payment_id: payment.payment_id, signature: checkoutSignature(orderId, payment.payment_id, this.state.key_secret) };
  }

  /** The tester made the payment fail (as a declined card or an unanswered UPI request does). */
  fail(orderId: string): boolean {
    const order = this.state.orders[orderId];
    if (!order) return false;
    const payment = this.newPayment(orderId, order.amount_paise, 'failed');
    this.queue('payment.failed', { payment: { entity: { ...this.entityOf(payment), error_code: 'BAD_REQUEST_ERROR', error_description: 'Payment failed at the local test gateway' } } });
    return true;
  }

  private newPayment(orderId: string, amount: number, status: GatewayPayment['status']): GatewayPayment {
    const payment: GatewayPayment = { payment_id: `pay_${randomBytes(10).toString('base64url')}`, order_id: orderId, amount_paise: amount, currency: 'INR', status };
    this.state.payments[payment.payment_id] = { ...payment, at: this.now() };
    return payment;
  }

  private entityOf(payment: GatewayPayment) {
    return { id: payment.payment_id, entity: 'payment', amount: payment.amount_paise, currency: payment.currency, status: payment.status, order_id: payment.order_id, method: 'upi' };
  }

  private queue(event: string, payload: object): void {
    const body = JSON.stringify({ entity: 'event', account_id: 'acc_local', event, contains: Object.keys(payload), payload, created_at: Math.floor(this.now() / 1000) });
    this.state.deliveries.push({ event_id: randomUUID(), body, attempts: 0, next_at: this.now() });
    this.save();
    this.schedule(0);
  }

  private schedule(delayMs: number): void {
    if (this.closed || !this.target) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.deliverDue(), delayMs);
    this.timer.unref();
  }

  private async deliverDue(): Promise<void> {
    if (this.delivering || !this.target) return;
    this.delivering = true;
    try {
      for (const delivery of this.state.deliveries.filter((d) => d.next_at <= this.now())) {
        if (this.closed) return;
        const delivered = await fetch(this.target, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-Razorpay-Signature': hmacHex(this.state.webhook_secret, delivery.body), 'X-Razorpay-Event-Id': delivery.event_id },
          body: delivery.body,
          signal: AbortSignal.timeout(10_000),
        }).then((response) => response.ok, () => false);
        if (delivered) this.state.deliveries = this.state.deliveries.filter((d) => d !== delivery);
        else {
          delivery.attempts += 1;
          delivery.next_at = this.now() + Math.min(MAX_BACKOFF_MS, 1000 * 2 ** delivery.attempts);
          this.options.logger.warn({ event_id: delivery.event_id, attempts: delivery.attempts }, 'the local test gateway could not deliver a webhook; it tries again');
        }
        this.save();
      }
    } finally {
      this.delivering = false;
    }
    const next = Math.min(...this.state.deliveries.map((d) => d.next_at));
    if (Number.isFinite(next)) this.schedule(Math.max(0, next - this.now()));
  }

  /** The checkout page and the tester's three choices, each sending the patient back with the outcome. */
  router(): Router {
    const router = express.Router();
    // Back where the page asked (a path of this site only), else the patient's home page, the outcome added to its query.
    const returnPath = (value: unknown) => (typeof value === 'string' && value.length <= 512 && isReturnPath(value) ? value : CHECKOUT_RETURN_PATH);
    const back = (returnTo: unknown, query: Record<string, string>) => {
      const path = returnPath(returnTo);
      return `${path}${path.includes('?') ? '&' : '?'}${new URLSearchParams(query).toString()}`;
    };
    router.get('/:orderId', (req, res) => {
      const order = this.state.orders[req.params.orderId];
      res.set('Cache-Control', 'no-store');
      if (!order) {
        res.status(404).send(standInPage('Checkout', '<h1>No such order</h1>'));
        return;
      }
      const returnTo = typeof req.query.return_to === 'string' && isReturnPath(req.query.return_to) ? `?${new URLSearchParams({ return_to: req.query.return_to }).toString()}` : '';
      const action = (choice: string) => escapeHtml(`${LOCAL_CHECKOUT_PATH}/${encodeURIComponent(req.params.orderId)}/${choice}${returnTo}`);
      const rupees = (order.amount_paise / 100).toFixed(2);
      res.send(
        standInPage(
          'Test checkout',
          `<h1>Test checkout (development)</h1><p>This local test gateway stands in for Razorpay while developing: no money moves. Order ${escapeHtml(req.params.orderId)}, ₹${escapeHtml(rupees)}.</p>
<form method="post" action="${action('pay')}"><button type="submit">Pay ₹${escapeHtml(rupees)}</button></form>
<form method="post" action="${action('fail')}"><button type="submit" class="secondary">Make the payment fail</button></form>
<form method="post" action="${action('cancel')}"><button type="submit" class="secondary">Cancel</button></form>`,
        ),
      );
    });
    router.post('/:orderId/:choice', (req, res) => {
      const { orderId, choice } = req.params;
      if (!this.state.orders[orderId] || !['pay', 'fail', 'cancel'].includes(choice)) {
        res.status(404).send(standInPage('Checkout', '<h1>No such order</h1>'));
        return;
      }
      if (choice === 'pay') {
        const paid = this.pay(orderId);
        if (!paid) {
          res.status(409).send(standInPage('Checkout', '<h1>This order is already paid</h1>'));
          return;
        }
        res.redirect(303, back(req.query.return_to, { pack_order: orderId, payment_id: paid.payment_id, signature: paid.signature }));
        return;
      }
      if (choice === 'fail') this.fail(orderId);
      res.redirect(303, back(req.query.return_to, { pack_order: orderId, payment: choice === 'fail' ? 'failed' : 'cancelled' }));
    });
    return router;
  }
}
