import { streams } from '@telemed/contracts';
import type { CheckpointStore, EventStore, Logger, VideoProvider } from '@telemed/platform';
import { handleCommand, systemContext } from '../decider';
import { appointmentDecider } from '../appointments/appointment';
import { consultationFoldsOf } from '../consultations/service';
import { joinedOf } from '../consultations/consultation';
import { startProcessManager } from './subscriber';

/**
 * A consultation that ended (End Call or the limit) completes its appointment (if both parties joined it) and closes its room on the video
 * provider (LiveKit deletes it, so no token still valid keeps anyone in it). Idempotent: replays change nothing.
 */
export function startConsultationCloser(deps: {
  eventStore: EventStore;
  checkpoints: CheckpointStore;
  logger: Logger;
  clock: () => Date;
  video: VideoProvider;
}) {
  return startProcessManager({
    name: 'consultation-closer',
    ...deps,
    handles: ['ConsultationEnded', 'ConsultationAutoEnded'],
    ignores: [
      'accounts', 'sessions', 'privacy', 'institutions', 'schedule', 'appointments', 'records', 'blog', 'messaging', 'phone', 'waitlist', 'wallet',
      'ConsultationStarted', 'ConsultationJoined', 'ConsultationLeft', 'ConsultationMessagePosted', 'VideoProviderEventReceived',
    ],
    handle: async (event) => {
      const appointmentId = event.data.appointment_id;
      const { state } = await consultationFoldsOf(deps.eventStore).current(streams.consultation(appointmentId));
      if (state.status === 'none') return;
      await handleCommand(
        deps.eventStore,
        streams.appointment(appointmentId),
        appointmentDecider,
        { type: 'CompleteAppointment', data: { ended_at: event.metadata.occurred_at, auto_ended: event.type === 'ConsultationAutoEnded', joined: joinedOf(state) } },
        systemContext(deps.clock(), event.event_id, event.metadata.correlation_id),
      );
      if (state.provider === deps.video.kind) {
        try {
          await deps.video.closeRoom(state.room);
        } catch (error) {
          // The room service being down must not hold back the log: the room's tokens expire at the limit anyway.
          deps.logger.warn({ err: error, room: state.room }, 'could not close the video room');
        }
      }
    },
  });
}
