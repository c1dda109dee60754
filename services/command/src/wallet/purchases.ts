import { randomBytes } from 'node:crypto';
import { CREDIT_PACKS, WALLET_TEXTS, conflict, invalid, notFound, streams } from '@telemed/contracts';
import { HttpError, PaymentGatewayError, type EventStore, type Logger, type PaymentGateway, type PaymentNotice } from '@telemed/platform';
import { handleCommand, readStream, type CommandContext } from '../decider';
import { packOrderDecider } from './pack-order';
import { handleWalletCommand, walletOf } from './fees';

export interface PurchaseDeps {
  eventStore: EventStore;
  gateway: PaymentGateway;
  logger: Logger;
  /** What a wallet not yet opened opens with (STARTING_CREDITS). */
  startingCredits?: number;
  /** Test-only fault injection (refused in production by the config). */
  faults?: { afterCaptureVerified?: () => void };
}

/** A gateway that cannot be reached, or refused, is the patient's "try again later": nothing was charged. */
export async function atGateway<T>(deps: PurchaseDeps, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof PaymentGatewayError)) throw error;
    deps.logger.warn({ gateway: deps.gateway.name, err: error.message }, 'the payment gateway did not answer as asked');
    throw new HttpError(503, WALLET_TEXTS.paymentsUnavailable);
  }
}

/** The gateway's order for a pack, recorded as the patient's before its checkout is opened. */
export async function orderPack(deps: PurchaseDeps, input: { patient_id: string; credits: number; return_to?: string }, context: CommandContext) {
  const pack = CREDIT_PACKS.find((p) => p.credits === input.credits);
  if (!pack) throw invalid('A pack on sale');
  const amount_paise = pack.price_rupees * 100;
  // Razorpay's receipt is at most 40 characters, and names no person.
  const receipt = `pack-${pack.credits}-${randomBytes(6).toString('hex')}`;
  const order = await atGateway(deps, () => deps.gateway.createOrder({ amount_paise, receipt, notes: { credits: String(pack.credits) } }));
  const placed = await handleCommand(
    deps.eventStore,
    streams.packOrder(order.order_id),
    packOrderDecider,
    { type: 'PlaceOrder', data: { order_id: order.order_id, patient_id: input.patient_id, credits: pack.credits, amount_paise, gateway: deps.gateway.name } },
    context,
  );
  return { order_id: order.order_id, credits: pack.credits, amount_paise, checkout: deps.gateway.checkout(order, { returnTo: input.return_to }), position: placed.position };
}

/**
 * Adds an order's credits for a payment of it the gateway captured: the order's own patient, credits and price, never
 * what the notice or a browser says; a payment already counted adds nothing. Null when the order is not one of ours or
 * the amount is not its price (nothing is added, and the mismatch is logged for the reconciliation).
 */
async function creditCapture(deps: PurchaseDeps, capture: { order_id: string; payment_id: string; amount_paise: number; currency: string }, context: CommandContext) {
  const { state: order } = await readStream(deps.eventStore, streams.packOrder(capture.order_id), packOrderDecider);
  if (order.status === 'none') return null;
  if (capture.amount_paise !== order.amount_paise || capture.currency !== 'INR') {
    deps.logger.error({ order_id: capture.order_id, payment_id: capture.payment_id }, 'a captured payment is not its order’s price: no credits added');
    return null;
  }
  const { patient_id, credits, amount_paise, gateway, order_id } = order;
  deps.faults?.afterCaptureVerified?.();
  return handleWalletCommand(deps.eventStore, patient_id, {
    type: 'RecordPurchase',
    data: { patient_id, order_id, payment_id: capture.payment_id, credits, amount_paise, gateway },
    grant: deps.startingCredits,
  }, context);
}

/**
 * The patient's page says the checkout finished: its signature is checked, then the gateway is asked whether the
 * payment is captured (the checkout's word alone adds nothing). Someone else's order is answered as no order at all.
 */
export async function confirmPackPayment(
  deps: PurchaseDeps,
  input: { patient_id: string; order_id: string; payment_id: string; signature: string },
  context: CommandContext,
) {
  const { state: order } = await readStream(deps.eventStore, streams.packOrder(input.order_id), packOrderDecider);
  if (order.status === 'none' || order.patient_id !== input.patient_id) throw notFound(WALLET_TEXTS.orderNotFound);
  if (!deps.gateway.verifyCheckout(input)) throw new HttpError(400, WALLET_TEXTS.paymentSignatureInvalid);
  const payment = await atGateway(deps, () => deps.gateway.fetchPayment(input.payment_id));
  if (!payment || payment.order_id !== input.order_id) throw conflict(WALLET_TEXTS.paymentUnknown);
  if (payment.status === 'failed' || payment.status === 'refunded') throw conflict(WALLET_TEXTS.paymentFailed);
  // Only a captured payment counts: an authorized one the gateway may still refund (a second payment of a paid order is).
  if (payment.status !== 'captured') return { order_id: input.order_id, status: 'pending' as const, credits: order.credits, position: null };
  const credited = await creditCapture(deps, { ...payment, order_id: input.order_id }, context);
  return { order_id: input.order_id, status: 'paid' as const, credits: order.credits, position: credited?.position ?? null };
}

/** What a verified webhook tells: a capture adds credits (once), a failure is recorded on its order (once). */
export async function receivePaymentNotice(deps: PurchaseDeps, notice: PaymentNotice, context: CommandContext): Promise<void> {
  if (notice.kind === 'captured') {
    await creditCapture(deps, notice, context);
    return;
  }
  if (notice.kind === 'failed') {
    await handleCommand(deps.eventStore, streams.packOrder(notice.order_id), packOrderDecider, { type: 'RecordFailure', data: { payment_id: notice.payment_id, error_code: notice.error_code } }, context);
  }
  if (notice.kind === 'refunded' && notice.order_id) {
    // A refund an operator asked for here, or made in the gateway's dashboard: recorded once, by its id.
    const { state: order } = await readStream(deps.eventStore, streams.packOrder(notice.order_id), packOrderDecider);
    if (order.status === 'none') return;
    await handleWalletCommand(deps.eventStore, order.patient_id, { type: 'RecordRefund', data: { patient_id: order.patient_id, payment_id: notice.payment_id, refund_id: notice.refund_id, amount_paise: notice.amount_paise } }, context);
  }
}

/**
 * An operator refunds what is left of a pack (the stated rule): its credits still unspent, up to what it bought, for
 * the same share of its price (rounded down to the paisa). The gateway refunds first; the wallet records it by the
 * refund's id, as its webhook will (whichever comes first counts, once).
 */
export async function refundPack(deps: PurchaseDeps, input: { patient_id: string; payment_id: string }, context: CommandContext) {
  const { state: wallet } = await walletOf(deps.eventStore, input.patient_id);
  const bought = wallet.status === 'open' ? wallet.purchases[input.payment_id] : undefined;
  if (!bought || wallet.status !== 'open') throw notFound(WALLET_TEXTS.purchaseNotFound);
  const credits = Math.min(bought.credits - bought.refunded_credits, wallet.balance);
  if (credits <= 0) throw conflict(WALLET_TEXTS.nothingToRefund);
  const amount_paise = Math.floor((bought.amount_paise * credits) / bought.credits);
  const refund = await atGateway(deps, () => deps.gateway.refund({ payment_id: input.payment_id, amount_paise, receipt: `refund-${randomBytes(6).toString('hex')}` }));
  const recorded = await handleWalletCommand(deps.eventStore, input.patient_id, { type: 'RecordRefund', data: { patient_id: input.patient_id, payment_id: input.payment_id, refund_id: refund.refund_id, amount_paise: refund.amount_paise } }, context);
  return { payment_id: input.payment_id, refund_id: refund.refund_id, amount_paise: refund.amount_paise, credits, position: recorded.position };
}
