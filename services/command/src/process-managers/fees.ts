import { streams, type DomainEventOf } from '@telemed/contracts';
import type { CheckpointStore, EventStore, Logger } from '@telemed/platform';
import { readStream, systemContext } from '../decider';
import { appointmentDecider } from '../appointments/appointment';
import { settleFee, type FeeOutcome } from '../wallet/fees';
import { startProcessManager } from './subscriber';

type Settling = DomainEventOf<'AppointmentRejected' | 'AppointmentCancelled' | 'AppointmentExpired' | 'AppointmentVoided' | 'AppointmentCompleted' | 'AppointmentNoShow'>;

/**
 * What the fees rule (issue 36) makes of how an appointment ended: the consultation taking place, or the patient
 * missing it, keeps the fee; a late cancellation keeps it where the doctor's rules count one as a no-show; a
 * rejection, the doctor's cancellation or absence, declined or unanswered times, an expiry or a booking that never
 * stood give it back in full.
 */
export function feeOutcomeOf(event: Settling): FeeOutcome {
  switch (event.type) {
    case 'AppointmentCompleted':
      return { charge: 'consultation' };
    case 'AppointmentNoShow':
      return event.data.absent === 'patient' ? { charge: 'patient_no_show' } : { return: 'doctor_no_show' };
    case 'AppointmentRejected':
      return { return: 'rejected' };
    case 'AppointmentExpired':
      return { return: 'expired' };
    case 'AppointmentVoided':
      return { return: 'not_booked' };
    case 'AppointmentCancelled':
      if (event.data.cause) return { return: 'declined_times' };
      if (event.data.cancelled_by === 'patient' && event.data.late === 'no_show') return { charge: 'late_cancellation' };
      return { return: 'cancelled' };
  }
}

/** The patient whose wallet holds the appointment's fee: its request's, else (a void) its slot's reservation's. */
async function patientOf(eventStore: EventStore, event: Settling): Promise<string | null> {
  const { state } = await readStream(eventStore, streams.appointment(event.data.appointment_id), appointmentDecider);
  if (state.status !== 'none') return state.appointment.patient_id;
  if (event.type !== 'AppointmentVoided') return null;
  for (const stored of await eventStore.readStream(streams.slot(event.data.slot_id))) {
    const data = stored.data as { appointment_id?: string; patient_id?: string };
    if (stored.type === 'SlotReserved' && data.appointment_id === event.data.appointment_id && data.patient_id) return data.patient_id;
  }
  return null;
}

/** Settles each appointment's held fee when it ends, recorded with the causing event's id (idempotent: settled once). */
export function startFeeSettler(deps: { eventStore: EventStore; checkpoints: CheckpointStore; logger: Logger; clock: () => Date }) {
  return startProcessManager({
    name: 'fee-settler',
    ...deps,
    handles: ['AppointmentRejected', 'AppointmentCancelled', 'AppointmentExpired', 'AppointmentVoided', 'AppointmentCompleted', 'AppointmentNoShow'],
    ignores: [
      'accounts', 'sessions', 'privacy', 'institutions', 'schedule', 'consultations', 'records', 'blog', 'messaging', 'phone', 'waitlist', 'wallet',
      // A request holds its fee as it is made; an approval keeps it held; a move keeps it (the same doctor).
      'AppointmentRequested', 'AppointmentApproved', 'AppointmentConsultationBegun', 'AppointmentRescheduled', 'AppointmentHoldReleased',
      'AppointmentTimesProposed', 'AppointmentFollowUpOffered', 'AppointmentFollowUpBooked', 'AppointmentFollowUpWithdrawn',
    ],
    handle: async (event) => {
      const patient_id = await patientOf(deps.eventStore, event);
      if (!patient_id) return;
      const context = systemContext(deps.clock(), event.event_id, event.metadata.correlation_id);
      await settleFee(deps.eventStore, { patient_id, appointment_id: event.data.appointment_id }, feeOutcomeOf(event), context);
    },
  });
}
