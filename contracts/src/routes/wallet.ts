import { z } from '../zod';
import { CREDIT_PACKS } from '../constants';
import { FEE_CHARGE_REASONS, FEE_RETURN_REASONS, MAX_ADJUSTMENT_CREDITS, isReturnPath } from '../wallet';
import { safeText } from '../safe-text';
import { defineRoutes } from './define';
import { timezoneQuerySchema } from '../api';
import { calendarDateSchema } from '../time-fields';

const walletSchema = z
  .object({
    balance: z.number().int().openapi({ description: 'Credits free to spend' }),
    held: z.number().int().openapi({ description: 'Credits held for requests not yet charged or returned' }),
    rupees_per_credit: z.number().positive().openapi({ description: 'What one credit pays of a fee, in rupees' }),
    packs: z.array(z.object({ credits: z.number().int(), price_rupees: z.number().int() })),
  })
  .openapi('Wallet');

const entrySchema = z
  .object({
    entry_id: z.string(),
    at: z.string(),
    kind: z.enum(['opened', 'bought', 'held', 'charged', 'returned', 'adjusted', 'refunded']),
    /** What the entry did to the spendable balance (a charge moves a held fee: it changes nothing here). */
    credits: z.number().int(),
    appointment_id: z.string().nullable(),
    reason: z.union([z.enum(FEE_CHARGE_REASONS), z.enum(FEE_RETURN_REASONS), z.literal('adjustment')]).nullable(),
    amount_paise: z.number().int().nullable(),
    payment_id: z.string().nullable(),
  })
  .openapi('WalletEntry');

const orderParams = z.object({ order_id: z.string().min(1).max(64) });

const checkoutSchema = z
  .discriminatedUnion('kind', [
    z.object({ kind: z.literal('razorpay'), key_id: z.string(), order_id: z.string(), amount_paise: z.number().int() }),
    z.object({ kind: z.literal('local'), url: z.string().openapi({ description: "The local test gateway's checkout page (development only)" }) }),
  ])
  .openapi('Checkout');

const paymentOutcomeSchema = z
  .object({
    order_id: z.string(),
    status: z.enum(['paid', 'pending']).openapi({ description: '`pending`: the gateway has not captured the payment yet; its webhook adds the credits when it does' }),
    credits: z.number().int(),
  })
  .openapi('PackPaymentOutcome');

const earningsSchema = z
  .object({
    currency: z.literal('INR'),
    months: z.array(z.object({ month: z.string().openapi({ example: '2026-12' }), rupees: z.number(), consultations: z.number().int() })),
    today: z.object({ rupees: z.number(), consultations: z.number().int() }),
  })
  .openapi('DoctorEarnings');

export const walletRoutes = defineRoutes({
  getMyEarnings: {
    summary: "The doctor's earnings: the fees kept (consultations that took place, missed and late-cancelled ones under their rules), by month in their zone, oldest first, and today's",
    tags: ['wallet'],
    query: z.strictObject({
      months: z.coerce.number().int().min(1).max(24).default(6),
      timezone_str: timezoneQuerySchema.shape.timezone_str,
    }),
    response: earningsSchema,
  },
  adjustWallet: {
    summary: `A platform admin's correction of a patient's credits, with its reason (a whole number other than zero, at most ${MAX_ADJUSTMENT_CREDITS} either way; never below zero)`,
    tags: ['wallet'],
    params: z.object({ patient_id: z.string().min(1).max(64) }),
    body: z
      .strictObject({
        credits: z.number().int().refine((n) => n !== 0 && Math.abs(n) <= MAX_ADJUSTMENT_CREDITS, `a whole number other than zero, at most ${MAX_ADJUSTMENT_CREDITS} either way`),
        reason: safeText().trim().min(3).max(300),
      })
      .openapi('AdjustWalletRequest'),
    response: z.object({ patient_id: z.string(), credits: z.number().int(), reason: z.string() }),
    successStatus: 201,
    errors: [404, 409, 422],
  },
  refundPack: {
    summary: "A platform admin refunds what is left of a patient's pack through the gateway: its unspent credits, up to what it bought, for the same share of its price (rounded down to the paisa); taken from the patient's credits once",
    tags: ['wallet'],
    params: z.object({ patient_id: z.string().min(1).max(64) }),
    body: z.strictObject({ payment_id: z.string().min(1).max(64) }).openapi('RefundPackRequest'),
    response: z.object({ payment_id: z.string(), refund_id: z.string(), amount_paise: z.number().int(), credits: z.number().int() }),
    successStatus: 201,
    errors: [404, 409, 503],
  },
  reconcilePayments: {
    summary: "Platform admins: the gateway's payments in a window of days (India) against the packs the wallets credited: captured payments no wallet counted (a second payment of a paid order is one, to refund), and credits whose payment the gateway does not show as taken",
    tags: ['wallet'],
    query: z.strictObject({ from: calendarDateSchema, to: calendarDateSchema }),
    response: z
      .object({
        from: z.string(),
        to: z.string(),
        matched: z.number().int(),
        gateway_only: z.array(z.object({ payment_id: z.string(), order_id: z.string().nullable(), amount_paise: z.number().int(), status: z.string() })),
        wallet_only: z.array(z.object({ payment_id: z.string(), patient_id: z.string(), amount_paise: z.number().int(), at: z.string() })),
      })
      .openapi('PaymentReconciliation'),
    errors: [422, 503],
  },
  getMyReceipt: {
    summary: "A pack's receipt as a PDF: the seller (BUSINESS_NAME, its address and GSTIN where set), the date, the pack, the amount and the payment's id, in the patient's language beside English",
    tags: ['wallet'],
    params: z.object({ payment_id: z.string().min(1).max(64) }),
    errors: [404],
  },
  createPackOrder: {
    summary: "Start buying a pack: the gateway's order for its price, and what the page needs to open the gateway's checkout. No credits until the payment is captured",
    tags: ['wallet'],
    body: z
      .strictObject({
        credits: z.number().int().refine((credits) => CREDIT_PACKS.some((pack) => pack.credits === credits), 'one of the packs on sale'),
        return_to: z
          .string()
          .max(512)
          .refine(isReturnPath, 'a path of this site')
          .optional()
          .openapi({ description: "Where a checkout that is a page of its own (the local test gateway's) sends the patient back: a path of this site (the booking they were making); their home page when absent" }),
      })
      .openapi('CreatePackOrderRequest'),
    response: z.object({ order_id: z.string(), credits: z.number().int(), amount_paise: z.number().int(), checkout: checkoutSchema }).openapi('PackOrder'),
    successStatus: 201,
    errors: [403, 422, 429, 503],
  },
  confirmPackPayment: {
    summary: "The checkout's word that a payment was made (its signature over order_id|payment_id): the credits are added once the gateway confirms the payment captured, and only once",
    tags: ['wallet'],
    params: orderParams,
    body: z.strictObject({ payment_id: z.string().min(1).max(64), signature: z.string().min(1).max(128) }).openapi('ConfirmPackPaymentRequest'),
    response: paymentOutcomeSchema,
    errors: [400, 404, 409, 503],
  },
  receivePaymentWebhook: {
    summary: "The payment gateway's webhook (payment.captured, payment.failed, refund.processed): verified by X-Razorpay-Signature over the raw body, each payment counted once however often it is delivered",
    tags: ['wallet'],
    body: z.record(z.string(), z.unknown()),
    response: z.object({ status: z.literal('received') }),
    errors: [400, 401],
  },
  getMyWallet: {
    summary: `The patient's credits: free to spend and held for requests (a new wallet starts with its grant), and the packs on sale (${CREDIT_PACKS.length})`,
    tags: ['wallet'],
    response: walletSchema,
  },
  listMyWalletEntries: {
    summary: "The patient's statement: every change of their credits, newest first, a page at a time",
    tags: ['wallet'],
    query: z.strictObject({
      limit: z.coerce.number().int().min(1).max(100).default(50),
      before: z.string().max(64).optional().openapi({ description: 'The entry_id of the last entry of the previous page' }),
    }),
    response: z.array(entrySchema),
  },
});
