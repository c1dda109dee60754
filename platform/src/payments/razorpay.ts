import { PaymentGatewayError, type GatewayOrder, type GatewayPayment, type GatewayRefund, type PaymentGateway } from './port';
import { paymentStatusOf } from './webhooks';
import { verifyCheckoutSignature, verifyWebhookSignature } from './signatures';

export interface RazorpaySettings {
  keyId: string;
  keySecret: string;
  webhookSecret: string;
  /** Razorpay's API (https://api.razorpay.com/v1); a test points it at a server of its own. */
  apiUrl: string;
  timeoutMs?: number;
}

const TIMEOUT_MS = 10_000;
/** Razorpay's largest page of payments. */
const PAGE = 100;

/**
 * Razorpay as its documentation describes it: orders (`POST /orders`, amounts in paise) and refunds
 * (`POST /payments/{id}/refund`) with HTTP basic authentication by key id and secret; the checkout opened in the
 * page with the key id and the order id; its signatures checked here (signatures.ts).
 */
export class RazorpayGateway implements PaymentGateway {
  readonly name = 'razorpay';

  constructor(private readonly settings: RazorpaySettings) {}

  private async post(path: string, body: object): Promise<Record<string, unknown>> {
    return this.call('POST', path, body);
  }

  private async call(method: 'GET' | 'POST', path: string, body?: object): Promise<Record<string, unknown>> {
    const auth = Buffer.from(`${this.settings.keyId}:${this.settings.keySecret}`).toString('base64');
    let response: Response;
    let text: string;
    try {
      response = await fetch(`${this.settings.apiUrl}${path}`, {
        method,
        headers: { Authorization: `Basic ${auth}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
        // A redirect would carry the credentials elsewhere.
        redirect: 'error',
        signal: AbortSignal.timeout(this.settings.timeoutMs ?? TIMEOUT_MS),
      });
      text = await response.text();
    } catch (error) {
      throw new PaymentGatewayError(`razorpay unreachable: ${error instanceof Error ? error.name : 'network error'}`, false);
    }
    let answer: unknown = null;
    try {
      answer = JSON.parse(text);
    } catch {
      // Not JSON: the status alone decides.
    }
    const record = answer !== null && typeof answer === 'object' ? (answer as Record<string, unknown>) : {};
    if (!response.ok) {
      const error = record.error as { code?: unknown; description?: unknown } | undefined;
      const what = typeof error?.code === 'string' ? error.code : `HTTP ${response.status}`;
      throw new PaymentGatewayError(`razorpay refused: ${what}`, response.status >= 400 && response.status < 500 && response.status !== 429, response.status);
    }
    return record;
  }

  async createOrder(input: { amount_paise: number; receipt: string; notes: Readonly<Record<string, string>> }): Promise<GatewayOrder> {
    const answer = await this.post('/orders', { amount: input.amount_paise, currency: 'INR', receipt: input.receipt, notes: input.notes });
    if (typeof answer.id !== 'string' || answer.amount !== input.amount_paise) throw new PaymentGatewayError('razorpay answered an order that is not the one asked for', true);
    return { order_id: answer.id, amount_paise: input.amount_paise, currency: 'INR' };
  }

  checkout(order: GatewayOrder) {
    return { kind: 'razorpay' as const, key_id: this.settings.keyId, order_id: order.order_id, amount_paise: order.amount_paise };
  }

  verifyCheckout(input: { order_id: string; payment_id: string; signature: string }): boolean {
    return verifyCheckoutSignature(input, this.settings.keySecret);
  }

  verifyWebhook(rawBody: Buffer, signature: string | undefined): boolean {
    return verifyWebhookSignature(rawBody, signature, this.settings.webhookSecret);
  }

  /** `GET /payments?from&to&count&skip` (seconds since the epoch), a page of 100 at a time. */
  async listPayments(window: { from: Date; to: Date }): Promise<GatewayPayment[]> {
    const out: GatewayPayment[] = [];
    const [from, to] = [Math.floor(window.from.getTime() / 1000), Math.floor(window.to.getTime() / 1000)];
    for (let skip = 0; ; skip += PAGE) {
      const answer = await this.call('GET', `/payments?from=${from}&to=${to}&count=${PAGE}&skip=${skip}`);
      const items = Array.isArray(answer.items) ? (answer.items as Array<Record<string, unknown>>) : [];
      for (const item of items) {
        const status = paymentStatusOf(item.status);
        if (typeof item.id !== 'string' || typeof item.amount !== 'number' || !status) continue;
        out.push({ payment_id: item.id, order_id: typeof item.order_id === 'string' ? item.order_id : null, amount_paise: item.amount, currency: String(item.currency ?? ''), status });
      }
      if (items.length < PAGE) return out;
    }
  }

  async fetchPayment(paymentId: string): Promise<GatewayPayment | null> {
    let answer: Record<string, unknown>;
    try {
      answer = await this.call('GET', `/payments/${encodeURIComponent(paymentId)}`);
    } catch (error) {
      if (error instanceof PaymentGatewayError && (error.status === 400 || error.status === 404)) return null;
      throw error;
    }
    const status = paymentStatusOf(answer.status);
    if (answer.id !== paymentId || typeof answer.amount !== 'number' || !status) throw new PaymentGatewayError('razorpay answered a payment that is not the one asked for', true);
    return { payment_id: paymentId, order_id: typeof answer.order_id === 'string' ? answer.order_id : null, amount_paise: answer.amount, currency: String(answer.currency ?? ''), status };
  }

  async refund(input: { payment_id: string; amount_paise: number; receipt: string }): Promise<GatewayRefund> {
    const answer = await this.post(`/payments/${encodeURIComponent(input.payment_id)}/refund`, { amount: input.amount_paise, receipt: input.receipt, speed: 'normal' });
    if (typeof answer.id !== 'string') throw new PaymentGatewayError('razorpay answered no refund id', true);
    return { refund_id: answer.id, amount_paise: typeof answer.amount === 'number' ? answer.amount : input.amount_paise };
  }
}
