import { consentCommandResponseSchema, consentVersionParamsSchema, giveConsentRequestSchema } from '@telemed/contracts';
import { policies, type ApiRouter } from '@telemed/platform';
import { positionHeader, requestContext, type CommandDeps } from '../context';
import { giveConsent, withdrawConsent } from './service';

/** Agreeing to and withdrawing from the privacy notice (reads are the query service's). */
export function consentRoutes(api: ApiRouter, deps: CommandDeps): void {
  api.route({
    method: 'delete',
    path: '/users/me/consents/:notice_version',
    summary: 'Withdraw my consent to a version of the privacy notice (no new bookings until I agree again)',
    tags: ['consents'],
    policy: policies.roles('patient'),
    params: consentVersionParamsSchema,
    response: consentCommandResponseSchema,
    errors: [404],
    handler: async ({ params, auth, req }) => {
      const result = await withdrawConsent(deps.eventStore, auth.user_id, params.notice_version, requestContext(req, auth, deps.clock()));
      return { body: { notice_version: params.notice_version, status: 'withdrawn' as const }, headers: positionHeader(result.position) };
    },
  });

  api.route({
    method: 'post',
    path: '/users/me/consents',
    summary: 'Agree to the current privacy notice (needed before booking)',
    tags: ['consents'],
    policy: policies.roles('patient'),
    body: giveConsentRequestSchema,
    response: consentCommandResponseSchema,
    successStatus: 201,
    errors: [404, 409],
    handler: async ({ body, auth, req }) => {
      const result = await giveConsent(deps.eventStore, auth.user_id, body, requestContext(req, auth, deps.clock()));
      return { body: { notice_version: body.notice_version, status: 'active' as const }, headers: positionHeader(result.position) };
    },
  });
}
