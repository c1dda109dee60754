import {
  API_TEXTS,
  notFound,
  subscribeRequestSchema,
  subscribeResponseSchema,
  updateMeRequestSchema,
} from '@telemed/contracts';
import { policies, type ApiRouter } from '@telemed/platform';
import { positionHeader, requestContext, type CommandDeps } from '../context';
import { handleUserCommand } from './load-user';
import { accountStatus } from './account-standing';

export function userRoutes(api: ApiRouter, deps: CommandDeps): void {
  api.route({
    method: 'put',
    path: '/users/me',
    summary: 'Update my profile (doctors also their practitioner fields)',
    tags: ['users'],
    policy: policies.anyUser,
    body: updateMeRequestSchema,
    errors: [404],
    handler: async ({ body, auth, req }) => {
      const { name, phone_number, ...doctorFields } = body;
      const result = await handleUserCommand(
        deps.eventStore,
        auth.user_id,
        { type: 'UpdateProfile', data: { name, phone_number, doctor: doctorFields } },
        requestContext(req, auth, deps.clock()),
      );
      return { body: { status: 'success' }, headers: positionHeader(result.position) };
    },
  });

  api.route({
    method: 'post',
    path: '/users/subscribe',
    summary: "Add a doctor to the patient's list",
    tags: ['users'],
    policy: policies.roles('patient'),
    body: subscribeRequestSchema,
    response: subscribeResponseSchema,
    errors: [404],
    handler: async ({ body, auth, req }) => {
      const doctor = await accountStatus(deps.eventStore, body.doctor_id);
      const doctorExists = doctor.status === 'registered' && doctor.account_type === 'doctor';
      if (!doctorExists) throw notFound(API_TEXTS.doctorNotFound);
      const result = await handleUserCommand(
        deps.eventStore,
        auth.user_id,
        { type: 'SubscribeToDoctor', data: { doctor_id: body.doctor_id, doctor_exists: doctorExists } },
        requestContext(req, auth, deps.clock()),
      );
      return { body: { status: 'success' as const, doctor_id: body.doctor_id }, headers: positionHeader(result.position) };
    },
  });
}
