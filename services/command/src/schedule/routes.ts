import { policies, type ApiRouter } from '@telemed/platform';
import { positionHeader, requestContext, type CommandDeps } from '../context';
import { setAvailability } from './service';

export function scheduleRoutes(api: ApiRouter, deps: CommandDeps): void {
  api.implement('setAvailability', {
    policy: policies.roles('doctor'),
    handler: async ({ body, auth, req }) => {
      const result = await setAvailability(deps.eventStore, auth.user_id, body, requestContext(req, auth, deps.clock()));
      return {
        body: { status: 'success' as const, opened: result.opened, withdrawn: result.withdrawn, unchanged: result.unchanged },
        headers: positionHeader(result.position),
      };
    },
  });
}
