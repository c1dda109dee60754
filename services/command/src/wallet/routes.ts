import { HttpError, parsePaymentNotice, policies, rawBodyOf, type ApiRouter, type PaymentGateway } from '@telemed/platform';
import { positionHeader, requestContext, systemRequestContext, type CommandDeps } from '../context';
import { confirmPackPayment, orderPack, receivePaymentNotice } from './purchases';

/**
 * Buying packs (issue 36): a patient orders one and pays it in the gateway's checkout; credits are added only when
 * the gateway's capture is verified (the checkout's signature and the gateway's answer, or its signed webhook).
 */
export function walletRoutes(api: ApiRouter, deps: CommandDeps & { gateway: PaymentGateway }): void {
  api.implement('createPackOrder', {
    policy: policies.roles('patient'),
    handler: async ({ body, auth, req }) => {
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

  api.implement('receivePaymentWebhook', {
    policy: policies.public,
    handler: async ({ req, body }) => {
      const raw = rawBodyOf(req);
      if (!raw || !deps.gateway.verifyWebhook(raw, req.get('X-Razorpay-Signature'))) throw new HttpError(401, 'Webhook signature is not valid');
      const notice = parsePaymentNotice(body);
      if (!notice) throw new HttpError(400, 'Not a payment webhook');
      await receivePaymentNotice(deps, notice, systemRequestContext(req, deps.clock()));
      return { body: { status: 'received' as const } };
    },
  });
}
