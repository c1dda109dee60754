import { API_TEXTS, notFound } from '@telemed/contracts';
import { policies, type ApiRouter } from '@telemed/platform';
import { positionHeader, requestContext, type CommandDeps } from '../context';
import { handleUserCommand } from './load-user';
import { accountStatus } from './account-standing';

export function userRoutes(api: ApiRouter, deps: CommandDeps): void {
  api.implement('updateMe', {
    policy: policies.anyUser,
    handler: async ({ body, auth, req }) => {
      const { name, phone_number, language, ...doctorFields } = body;
      const result = await handleUserCommand(
        deps.eventStore,
        auth.user_id,
        { type: 'UpdateProfile', data: { name, phone_number, language, doctor: doctorFields } },
        requestContext(req, auth, deps.clock()),
      );
      return { body: { status: 'success' as const }, headers: positionHeader(result.position) };
    },
  });

  // A doctor's own booking rules (issue 35): they take the place of their clinics' defaults from the next change on.
  api.implement('setMyBookingRules', {
    policy: policies.roles('doctor'),
    handler: async ({ body, auth, req }) => {
      const rules = { minNoticeMinutes: body.min_notice_minutes, maxReschedules: body.max_reschedules, lateCancellation: body.late_cancellation, autoAcceptMoves: body.auto_accept_moves };
      const result = await handleUserCommand(deps.eventStore, auth.user_id, { type: 'SetBookingRules', data: rules }, requestContext(req, auth, deps.clock()));
      return { body: { doctor_id: auth.user_id, ...body, source: 'doctor' as const }, headers: positionHeader(result.position) };
    },
  });

  api.implement('clearMyBookingRules', {
    policy: policies.roles('doctor'),
    handler: async ({ auth, req }) => {
      const result = await handleUserCommand(deps.eventStore, auth.user_id, { type: 'ClearBookingRules' }, requestContext(req, auth, deps.clock()));
      return { body: { doctor_id: auth.user_id, own_rules: false as const }, headers: positionHeader(result.position) };
    },
  });

  api.implement('subscribeToDoctor', {
    policy: policies.roles('patient'),
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
