import { HttpError, KeyBudget, parsePaymentNotice, policies, rawBodyOf, type ApiRouter, type PaymentGateway } from '@telemed/platform';
import { positionHeader, requestContext, systemRequestContext, type CommandDeps } from '../context';
import { API_TEXTS, DEFAULT_TIMEZONE, MAX_ORDERS_PER_HOUR, RECONCILIATION_MAX_DAYS, WALLET_TEXTS, invalid, notFound } from '@telemed/contracts';
import { accountStatus } from '../users/account-standing';
import { handleWalletCommand } from './fees';
import { atGateway, confirmPackPayment, orderPack, receivePaymentNotice, refundPack } from './purchases';
import { reconcile, type WalletLookups } from './reconciliation';
import { DateTime } from 'luxon';

/**
 * Buying packs (issue 36): a patient orders one and pays it in the gateway's checkout; credits are added only when
 * the gateway's capture is verified (the checkout's signature and the gateway's answer, or its signed webhook).
 */
export function walletRoutes(api: ApiRouter, deps: CommandDeps & { gateway: PaymentGateway; walletLookups?: WalletLookups }): void {
  // Buying and confirming are the patient's; adjusting is a platform admin's, with a reason kept under the patient's key.
  const orders = new KeyBudget({ points: MAX_ORDERS_PER_HOUR, windowSeconds: 3600, name: 'pack-orders' });
  api.implement('createPackOrder', {
    policy: policies.roles('patient'),
    handler: async ({ body, auth, req }) => {
      if (!(await orders.take(auth.user_id))) throw new HttpError(429, WALLET_TEXTS.tooManyOrders, { 'Retry-After': '3600' });
      const { position, ...order } = await orderPack(deps, { patient_id: auth.user_id, credits: body.credits, return_to: body.return_to }, requestContext(req, auth, deps.clock()));
      return { body: order, headers: positionHeader(position) };
    },
  });

  api.implement('confirmPackPayment', {
    policy: policies.roles('patient'),
    handler: async ({ params, body, auth, req }) => {
      const { position, ...outcome } = await confirmPackPayment(
        deps,
        { patient_id: auth.user_id, order_id: params.order_id, payment_id: body.payment_id, signature: body.signature },
        requestContext(req, auth, deps.clock()),
      );
      return { body: outcome, headers: positionHeader(position) };
    },
  });

  api.implement('adjustWallet', {
    policy: policies.roles('admin'),
    handler: async ({ params, body, auth, req }) => {
      const account = await accountStatus(deps.eventStore, params.patient_id);
      if (account.status !== 'registered' || account.account_type !== 'patient') throw notFound(API_TEXTS.userNotFound);
      const adjusted = await handleWalletCommand(
        deps.eventStore,
        params.patient_id,
        { type: 'Adjust', data: { patient_id: params.patient_id, credits: body.credits, reason: body.reason, adjusted_by: auth.user_id }, grant: deps.startingCredits },
        requestContext(req, auth, deps.clock()),
      );
      return { body: { patient_id: params.patient_id, credits: body.credits, reason: body.reason }, headers: positionHeader(adjusted.position) };
    },
  });

  api.implement('refundPack', {
    policy: policies.roles('admin'),
    handler: async ({ params, body, auth, req }) => {
      const { position, ...refunded } = await refundPack(deps, { patient_id: params.patient_id, payment_id: body.payment_id }, requestContext(req, auth, deps.clock()));
      return { body: refunded, headers: positionHeader(position) };
    },
  });

  api.implement('reconcilePayments', {
    policy: policies.roles('admin'),
    handler: async ({ query }) => {
      const from = DateTime.fromISO(query.from, { zone: DEFAULT_TIMEZONE }).startOf('day');
      const to = DateTime.fromISO(query.to, { zone: DEFAULT_TIMEZONE }).endOf('day');
      if (to < from || to.diff(from, 'days').days > RECONCILIATION_MAX_DAYS) throw invalid(WALLET_TEXTS.reconciliationWindow(String(RECONCILIATION_MAX_DAYS)));
      if (!deps.walletLookups) throw new HttpError(503, WALLET_TEXTS.paymentsUnavailable);
      const window = { from: from.toJSDate(), to: to.toJSDate() };
      const [taken, credited] = await Promise.all([atGateway(deps, () => deps.gateway.listPayments(window)), deps.walletLookups.purchasesBetween(window.from, window.to)]);
      return { body: { from: query.from, to: query.to, ...reconcile(taken, credited) } };
    },
  });

  api.implement('receivePaymentWebhook', {
    policy: policies.public,
    handler: async ({ req, body }) => {
      const raw = rawBodyOf(req);
      if (!raw || !deps.gateway.verifyWebhook(raw, req.get('X-Razorpay-Signature'))) throw new HttpError(401, 'Webhook signature is not valid');
      // Signed by the gateway: always answered 2xx (a refused one is sent again for a day, then the webhook disabled),
      // and what the product does not act on (a payment of no order, an event it does not take) is only noted.
      const notice = parsePaymentNotice(body);
      if (notice) await receivePaymentNotice(deps, notice, systemRequestContext(req, deps.clock()));
      else deps.logger.warn({ event: typeof body.event === 'string' ? body.event.slice(0, 64) : null }, 'a signed payment webhook the product does not act on');
      return { body: { status: 'received' as const } };
    },
  });
}
