import { streams } from '@telemed/contracts';
import type { CheckpointStore, EventStore, Logger } from '@telemed/platform';
import { readStream, systemContext } from '../decider';
import { appointmentDecider } from '../appointments/appointment';
import { handleSlotCommand } from '../schedule/slot-folds';
import { startProcessManager } from './subscriber';

const releaseReason = {
  AppointmentRejected: 'rejected',
  AppointmentCancelled: 'cancelled',
  AppointmentExpired: 'expired',
} as const;

/** A rejected, cancelled or expired appointment frees its slot; recorded with the causing event's id. */
export function startSlotReleaser(deps: { eventStore: EventStore; checkpoints: CheckpointStore; logger: Logger; clock: () => Date }) {
  return startProcessManager({
    name: 'slot-releaser',
    ...deps,
    handles: ['AppointmentRejected', 'AppointmentCancelled', 'AppointmentExpired'],
    ignores: [
      'accounts', 'sessions', 'privacy', 'institutions', 'schedule', 'consultations', 'records', 'blog', 'messaging', 'phone',
      'AppointmentRequested', 'AppointmentApproved', 'AppointmentVoided', 'AppointmentConsultationBegun', 'AppointmentCompleted',
    ],
    handle: async (event) => {
      const reason = releaseReason[event.type];
      const appointmentId = event.data.appointment_id;
      const { state } = await readStream(deps.eventStore, streams.appointment(appointmentId), appointmentDecider);
      if (state.status === 'none') return;
      await handleSlotCommand(
        deps.eventStore,
        state.appointment.slot_id,
        { type: 'ReleaseSlot', data: { appointment_id: appointmentId, reason } },
        systemContext(deps.clock(), event.event_id, event.metadata.correlation_id),
      );
    },
  });
}
