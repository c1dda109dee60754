import { z } from 'zod';
import type { GatewayPayment } from './port';

/**
 * What a payment webhook says, read from Razorpay's documented envelope (`event`, then `payload.payment.entity` and
 * `payload.refund.entity`); the local test gateway sends the same. Only what the product acts on is read: ids,
 * amounts, statuses and a failure's code, never the payer's method details.
 */
export type PaymentNotice =
  | { kind: 'captured'; payment_id: string; order_id: string; amount_paise: number; currency: string }
  | { kind: 'failed'; payment_id: string; order_id: string; error_code: string | null }
  | { kind: 'refunded'; refund_id: string; payment_id: string; order_id: string | null; amount_paise: number }
  | { kind: 'other'; event: string };

const PAYMENT_STATUSES = ['created', 'authorized', 'captured', 'refunded', 'failed'] as const;

export function paymentStatusOf(value: unknown): GatewayPayment['status'] | null {
  return (PAYMENT_STATUSES as readonly unknown[]).includes(value) ? (value as GatewayPayment['status']) : null;
}

const id = z.string().min(1).max(64);
const paymentEntity = z.object({ id, order_id: id, amount: z.number().int().positive(), currency: z.string().max(8), error_code: z.string().max(64).nullish() });
const refundEntity = z.object({ id, payment_id: id, amount: z.number().int().positive() });
const envelope = z.object({ event: z.string().max(64), payload: z.record(z.string(), z.unknown()).optional() });

/** The notice in a webhook's body (already verified against its signature); null when it is not a webhook at all. */
export function parsePaymentNotice(body: unknown): PaymentNotice | null {
  const outer = envelope.safeParse(body);
  if (!outer.success) return null;
  const { event, payload } = outer.data;
  const entity = (name: string) => (payload?.[name] as { entity?: unknown } | undefined)?.entity;
  if (event === 'payment.captured' || event === 'payment.failed') {
    const payment = paymentEntity.safeParse(entity('payment'));
    if (!payment.success) return null;
    const { id: payment_id, order_id, amount, currency, error_code } = payment.data;
    return event === 'payment.captured'
      ? { kind: 'captured', payment_id, order_id, amount_paise: amount, currency }
      : { kind: 'failed', payment_id, order_id, error_code: error_code ?? null };
  }
  if (event === 'refund.processed') {
    const refund = refundEntity.safeParse(entity('refund'));
    if (!refund.success) return null;
    // The refund's payment comes beside it (Razorpay's `contains: ["refund", "payment"]`): its order names the patient.
    const payment = z.object({ order_id: id.nullish() }).safeParse(entity('payment'));
    const order_id = payment.success ? (payment.data.order_id ?? null) : null;
    return { kind: 'refunded', refund_id: refund.data.id, payment_id: refund.data.payment_id, order_id, amount_paise: refund.data.amount };
  }
  return { kind: 'other', event };
}
