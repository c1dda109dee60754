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

/**
 * A rejected, cancelled or expired appointment frees its slot, and a moved one the slot it left (the move's request
 * releases it too; this finishes it after a crash); recorded with the causing event's id.
 */
export function startSlotReleaser(deps: { eventStore: EventStore; checkpoints: CheckpointStore; logger: Logger; clock: () => Date }) {
  return startProcessManager({
    name: 'slot-releaser',
    ...deps,
    handles: ['AppointmentRejected', 'AppointmentCancelled', 'AppointmentExpired', 'AppointmentRescheduled'],
    ignores: [
      'accounts', 'sessions', 'privacy', 'institutions', 'schedule', 'consultations', 'records', 'blog', 'messaging', 'phone', 'waitlist', 'wallet',
      'AppointmentRequested', 'AppointmentApproved', 'AppointmentVoided', 'AppointmentConsultationBegun', 'AppointmentCompleted',
      // A no-show's time has passed: its slot stays as it was, reserved for the appointment that did not take place.
      'AppointmentHoldReleased', 'AppointmentNoShow', 'AppointmentTimesProposed', 'AppointmentFollowUpOffered', 'AppointmentFollowUpBooked', 'AppointmentFollowUpWithdrawn',
    ],
    handle: async (event) => {
      const context = systemContext(deps.clock(), event.event_id, event.metadata.correlation_id);
      if (event.type === 'AppointmentRescheduled') {
        const { appointment_id, from_slot_id } = event.data;
        await handleSlotCommand(deps.eventStore, from_slot_id, { type: 'ReleaseSlot', data: { appointment_id, reason: 'rescheduled' } }, context);
        return;
      }
      const reason = releaseReason[event.type];
      const appointmentId = event.data.appointment_id;
      const { state } = await readStream(deps.eventStore, streams.appointment(appointmentId), appointmentDecider);
      if (state.status === 'none') return;
      await handleSlotCommand(
        deps.eventStore,
        state.appointment.slot_id,
        { type: 'ReleaseSlot', data: { appointment_id: appointmentId, reason } },
        context,
      );
    },
  });
}
