import { policies, type ApiRouter } from '@telemed/platform';
import { positionHeader, requestContext, type CommandDeps } from '../context';
import { giveConsent, withdrawConsent } from './service';

/** Agreeing to and withdrawing from the privacy notice (reads are the query service's). */
export function consentRoutes(api: ApiRouter, deps: CommandDeps): void {
  api.implement('withdrawConsent', {
    policy: policies.roles('patient'),
    handler: async ({ params, auth, req }) => {
      const result = await withdrawConsent(deps.eventStore, auth.user_id, params.notice_version, requestContext(req, auth, deps.clock()));
      return { body: { notice_version: params.notice_version, status: 'withdrawn' as const }, headers: positionHeader(result.position) };
    },
  });

  api.implement('giveConsent', {
    policy: policies.roles('patient'),
    handler: async ({ body, auth, req }) => {
      const result = await giveConsent(deps.eventStore, auth.user_id, body, requestContext(req, auth, deps.clock()));
      return { body: { notice_version: body.notice_version, status: 'active' as const }, headers: positionHeader(result.position) };
    },
  });
}
