import { setAvailabilityRequestSchema, setAvailabilityResponseSchema } from '@telemed/contracts';
import { policies, type ApiRouter } from '@telemed/platform';
import { positionHeader, requestContext, type CommandDeps } from '../context';
import { setAvailability } from './service';

export function scheduleRoutes(api: ApiRouter, deps: CommandDeps): void {
  api.route({
    method: 'post',
    path: '/schedule-v2/set_availability_v2/',
    summary: "Set the doctor's future availability (30-minute slots from 06:00 to 22:00 local time)",
    tags: ['schedule'],
    policy: policies.roles('doctor'),
    body: setAvailabilityRequestSchema,
    response: setAvailabilityResponseSchema,
    errors: [409],
    handler: async ({ body, auth, req }) => {
      const result = await setAvailability(deps.eventStore, auth.user_id, body, requestContext(req, auth, deps.clock()));
      return {
        body: { status: 'success' as const, opened: result.opened, withdrawn: result.withdrawn, unchanged: result.unchanged },
        headers: positionHeader(result.position),
      };
    },
  });
}
