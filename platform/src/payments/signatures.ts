import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Razorpay's two signatures, both HMAC-SHA256 as lowercase hex: the checkout's over `order_id|payment_id` keyed with
 * the API key secret, and a webhook's over its raw body keyed with the webhook secret. The local test gateway signs
 * the same way, so one check serves both.
 */
export function hmacHex(secret: string, data: string | Buffer): string {
  return createHmac('sha256', secret).update(data).digest('hex');
}

export const checkoutSignature = (orderId: string, paymentId: string, keySecret: string) => hmacHex(keySecret, `${orderId}|${paymentId}`);

/** Equal in constant time; anything but 64 hex digits is no signature at all. */
export function sameSignature(expected: string, given: string | undefined): boolean {
  if (typeof given !== 'string' || !/^[0-9a-f]{64}$/.test(given)) return false;
  return timingSafeEqual(Buffer.from(expected, 'hex'), Buffer.from(given, 'hex'));
}

export function verifyCheckoutSignature(input: { order_id: string; payment_id: string; signature: string }, keySecret: string): boolean {
  return sameSignature(checkoutSignature(input.order_id, input.payment_id, keySecret), input.signature);
}

export function verifyWebhookSignature(rawBody: Buffer, signature: string | undefined, webhookSecret: string): boolean {
  return sameSignature(hmacHex(webhookSecret, rawBody), signature);
}
