/**
 * Taking money (issue 36): a payment gateway creates an order for a pack, the patient pays it in the gateway's own
 * checkout, and the gateway's signed word (the checkout's signature, then its webhooks) is all that ever adds credits.
 * No card or UPI detail passes through the product: only the gateway's ids and amounts.
 */
export interface GatewayOrder {
  order_id: string;
  amount_paise: number;
  currency: 'INR';
}

/** What the page needs to open the gateway's checkout for an order. */
export type CheckoutOptions = { kind: 'razorpay'; key_id: string; order_id: string; amount_paise: number } | { kind: 'local'; url: string };

/** A refund the gateway accepted (its money reaches the patient later: `refund.processed`). */
export interface GatewayRefund {
  refund_id: string;
  amount_paise: number;
}

/** A payment as the gateway knows it: the product adds credits only for one `captured`. */
export interface GatewayPayment {
  payment_id: string;
  order_id: string | null;
  amount_paise: number;
  currency: string;
  status: 'created' | 'authorized' | 'captured' | 'refunded' | 'failed';
}

export class PaymentGatewayError extends Error {
  constructor(
    message: string,
    /** True when trying again cannot help (refused by the gateway); false for a network failure or a timeout. */
    readonly permanent: boolean,
    /** The gateway's HTTP status, when it answered. */
    readonly status?: number,
  ) {
    super(message);
    this.name = 'PaymentGatewayError';
  }
}

export interface PaymentGateway {
  /** Its name in events (`razorpay`, `local`). */
  readonly name: string;
  createOrder(input: { amount_paise: number; receipt: string; notes: Readonly<Record<string, string>> }): Promise<GatewayOrder>;
  /** `returnTo`: where a checkout that is a page of its own sends the patient back (a path of this site). */
  checkout(order: GatewayOrder, options?: { returnTo?: string }): CheckoutOptions;
  /** The checkout's word that `payment_id` paid `order_id` (the order id the product stored, never the browser's). */
  verifyCheckout(input: { order_id: string; payment_id: string; signature: string }): boolean;
  /** A webhook's body, exactly as received, against its signature header. */
  verifyWebhook(rawBody: Buffer, signature: string | undefined): boolean;
  /** The payments the gateway took in a window (both ends as instants), for the reconciliation. */
  listPayments(window: { from: Date; to: Date }): Promise<GatewayPayment[]>;
  /** The payment as the gateway has it now (null: it knows no such payment). */
  fetchPayment(paymentId: string): Promise<GatewayPayment | null>;
  refund(input: { payment_id: string; amount_paise: number; receipt: string }): Promise<GatewayRefund>;
}
