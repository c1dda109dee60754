/**
 * Credits (issue 36): a wallet per patient on the server, whose every change is an event on `wallet-<patient>`.
 * Zod-free: the frontend bundles this. Amounts of money are whole paise; credits are whole numbers.
 */

/** What one credit pays of a doctor's fee, in rupees (the rule; a clinic may set its own, `rupees_per_credit`). */
export const DEFAULT_RUPEES_PER_CREDIT = 1;

/** A fee in rupees as credits at a rate: whole credits, rounded up (a fee is never under-held). */
export function feeInCredits(feeRupees: number, rupeesPerCredit = DEFAULT_RUPEES_PER_CREDIT): number {
  if (!(feeRupees > 0)) return 0;
  return Math.ceil(feeRupees / rupeesPerCredit);
}

/** Why a held fee goes back to the patient in full. */
export const FEE_RETURN_REASONS = ['rejected', 'cancelled', 'expired', 'doctor_no_show', 'not_booked', 'declined_times'] as const;
export type FeeReturnReason = (typeof FEE_RETURN_REASONS)[number];

/** Why a held fee is kept: the consultation took place, or the patient missed it or cancelled inside the notice. */
export const FEE_CHARGE_REASONS = ['consultation', 'patient_no_show', 'late_cancellation'] as const;
export type FeeChargeReason = (typeof FEE_CHARGE_REASONS)[number];

/**
 * A path of this site to send a patient back to after a checkout: one leading slash (`//host` is another site), no
 * backslash, control character or fragment (the checkout's answer is added as a query), nothing a browser would read as
 * a scheme.
 */
export function isReturnPath(path: string): boolean {
  return /^\/(?![/\\])[^\\\s#]*$/.test(path) && ![...path].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);
}

/** How many packs' orders one patient may open in an hour (each is an order at the gateway and a stream in the log). */
export const MAX_ORDERS_PER_HOUR = 20;

/** The longest window of days one reconciliation reads from the gateway. */
export const RECONCILIATION_MAX_DAYS = 31;

/** The most an operator's adjustment may change a balance by at once (either way). */
export const MAX_ADJUSTMENT_CREDITS = 100_000;

export const WALLET_TEXTS = {
  insufficientCredits: (needed: string, balance: string) => `This consultation needs ${needed} credits and you have ${balance}. Add credits to book it.`,
  adjustmentBelowZero: 'An adjustment may not take the balance below zero',
  adjustmentInvalid: (max: string) => `An adjustment is a whole number of credits other than zero, at most ${max} either way`,
  paymentsUnavailable: 'Payments are unavailable just now. Nothing was charged: try again in a few minutes.',
  orderNotFound: 'No such order',
  reconciliationWindow: (days: string) => `A reconciliation covers at most ${days} days, the first not after the last`,
  tooManyOrders: 'Too many payments started in the last hour. Please finish or wait before starting another.',
  receiptNotFound: 'No such receipt',
  purchaseNotFound: 'No such pack bought by this patient',
  nothingToRefund: 'Nothing of this pack is left to refund: its credits are spent or already refunded',
  paymentSignatureInvalid: 'The payment could not be verified',
  paymentUnknown: 'The payment gateway knows no such payment of this order',
  paymentFailed: 'The payment failed and nothing was charged. You can try again.',
} as const;
