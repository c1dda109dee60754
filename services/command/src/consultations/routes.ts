import { randomUUID } from 'node:crypto';
import { appointmentIdOfRoom } from '@telemed/contracts';
import { HttpError, VideoWebhookRejected, policies, rawBodyOf, type ApiRouter, type Logger } from '@telemed/platform';
import { positionHeader, requestContext, type CommandDeps } from '../context';
import { systemContext } from '../decider';
import { loadUser } from '../users/service';
import { apiStatusOf, appointmentFacts, joinConsultation, postConsultationMessage, runConsultationCommand, type ConsultationDeps } from './service';
import type { ConsultationState } from './consultation';

const commandResult = (appointmentId: string, state: ConsultationState) => ({
  appointment_id: appointmentId,
  status: apiStatusOf(state),
  auto_ended: state.status === 'ended' && state.auto_ended,
});

/** The consultation's write API: join, leave, end, chat; and the video provider's webhook. */
export function consultationRoutes(api: ApiRouter, deps: CommandDeps & ConsultationDeps & { logger: Logger }): void {
  api.implement('joinConsultation', {
    policy: policies.roles('patient', 'doctor'),
    handler: async ({ params, auth, req }) => {
      const user = await loadUser(deps.eventStore, auth.user_id);
      const name = user.status === 'registered' ? user.name : auth.user_id;
      const { body, position } = await joinConsultation(
        deps,
        { appointment_id: params.appointment_id, user_id: auth.user_id, name },
        requestContext(req, auth, deps.clock()),
      );
      return { body, headers: positionHeader(position) };
    },
  });

  api.implement('leaveConsultation', {
    policy: policies.roles('patient', 'doctor'),
    handler: async ({ params, body, auth, req }) => {
      const appointment = await appointmentFacts(deps.eventStore, params.appointment_id);
      const result = await runConsultationCommand(
        deps.eventStore,
        params.appointment_id,
        { type: 'LeaveConsultation', data: { actor_id: auth.user_id, appointment, connection_id: body?.connection_id ?? null } },
        requestContext(req, auth, deps.clock()),
      );
      return { body: commandResult(params.appointment_id, result.state), headers: positionHeader(result.position) };
    },
  });

  api.implement('endConsultation', {
    policy: policies.roles('patient', 'doctor'),
    handler: async ({ params, auth, req }) => {
      const context = requestContext(req, auth, deps.clock());
      const appointment = await appointmentFacts(deps.eventStore, params.appointment_id);
      const result = await runConsultationCommand(
        deps.eventStore,
        params.appointment_id,
        { type: 'EndConsultation', data: { actor_id: auth.user_id, appointment, now: context.now } },
        context,
      );
      return { body: commandResult(params.appointment_id, result.state), headers: positionHeader(result.position) };
    },
  });

  api.implement('sendConsultationMessage', {
    policy: policies.roles('patient', 'doctor'),
    handler: async ({ params, body, auth, req }) => {
      const context = requestContext(req, auth, deps.clock());
      const appointment = await appointmentFacts(deps.eventStore, params.appointment_id);
      const message_id = randomUUID();
      const result = await postConsultationMessage(
        deps.eventStore,
        params.appointment_id,
        { type: 'PostConsultationMessage', data: { actor_id: auth.user_id, appointment, message_id, text: body.text, now: context.now } },
        context,
      );
      return { body: { message_id, sent_at: context.now.toISOString() }, headers: positionHeader(result.position) };
    },
  });

  api.implement('receiveLiveKitWebhook', {
    policy: policies.public,
    handler: async ({ req }) => {
      if (!deps.video.receiveWebhook) throw new HttpError(404, 'LiveKit is not configured');
      const raw = rawBodyOf(req);
      if (!raw) throw new HttpError(400, 'A webhook body is required');
      let webhook;
      try {
        webhook = await deps.video.receiveWebhook(raw.toString('utf8'), req.get('Authorization'));
      } catch (error) {
        if (error instanceof VideoWebhookRejected) throw new HttpError(401, 'Webhook signature is not valid');
        throw error;
      }
      const appointmentId = webhook.room ? appointmentIdOfRoom(webhook.room) : null;
      if (appointmentId && webhook.room) {
        const now = deps.clock();
        await runConsultationCommand(
          deps.eventStore,
          appointmentId,
          {
            type: 'RecordVideoProviderEvent',
            data: {
              provider_event_id: webhook.id,
              event: webhook.event,
              room: webhook.room,
              participant_identity: webhook.participant_identity,
              participant_sid: webhook.participant_sid,
              created_at: webhook.created_at,
            },
          },
          { ...systemContext(now, null), actor: { user_id: 'livekit', role: 'system' } },
        );
      } else deps.logger.info({ event: webhook.event }, 'LiveKit webhook for no consultation room');
      return { body: { status: 'received' as const } };
    },
  });
}
