import { DomainError, streams } from '@telemed/contracts';
import type { CheckpointStore, EventStore, Logger } from '@telemed/platform';
import { handleCommand, systemContext, type CommandContext } from '../decider';
import { appointmentDecider } from '../appointments/appointment';
import { handleSlotCommand } from '../schedule/slot-folds';
import { forEachPage, SWEEP_PAGE_SIZE, whileStill } from './pages';
import { startProcessManager } from './subscriber';
import { accountStanding } from '../users/account-standing';
import { closeUnavailableDoctorsAppointments } from './unavailable-doctor';
import { closePlacesOf, type WaitlistLookups } from '../waitlist/service';
import { READ_MODEL_WAIT_MS, type AccountLookups, type OpenAppointmentRef, type OpenSlotRef } from './lookups';

export type { AccountLookups, OpenAppointmentRef, OpenSlotRef } from './lookups';
import { consultationBegun } from './consultation-begun';
import { appointmentBefore } from './requested-before';

interface CloseDeps {
  eventStore: EventStore;
  lookups: AccountLookups & Pick<WaitlistLookups, 'openPlacesOf'>;
  clock: () => Date;
  pageSize?: number;
}

/**
 * A closed doctor's slot must not open again: released from the appointment just closed on it (if any; the slot
 * releaser's own release then finds nothing to do) and withdrawn at once. Idempotent; answers the slots withdrawn.
 */
export async function withdrawClosedDoctorsSlot(eventStore: EventStore, slotId: number, appointmentId: string | null, context: CommandContext): Promise<number> {
  if (appointmentId) await handleSlotCommand(eventStore, slotId, { type: 'ReleaseSlot', data: { appointment_id: appointmentId, reason: 'cancelled' } }, context);
  return (await handleSlotCommand(eventStore, slotId, { type: 'WithdrawSlot', data: { slot_id: slotId } }, context)).events.length;
}

/** A decision that no longer applies (ended, already cancelled, taken meanwhile) is skipped; anything else is retried. */
async function unlessSettled(work: () => Promise<unknown>): Promise<void> {
  try {
    await work();
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
  }
}

/**
 * A closed account (deactivated or erased) leaves nobody waiting on it: a patient's appointments still to come are
 * cancelled in their name, without a reason (a reason would be the person's data); a doctor's appointments not yet
 * started are rejected or cancelled by the system with the reason 'Doctor is no longer available' (see
 * unavailable-doctor.ts), and their open slots are withdrawn so nobody can book them. Idempotent: cancelling or
 * withdrawing twice records nothing the second time. On either side an appointment whose start time has come or whose
 * consultation has begun is left to its consultation (appointment.ts, leftToItsConsultation): the call goes on and
 * the doctor can still write its notes and prescription. Only appointments requested before the closing event are
 * closed here: its check of the account and its cancels are on different streams, so one booked after a reactivation
 * it has not seen yet is left to the late-request closer, which decides on the account as it is (requested-before.ts).
 */
export async function closeAccount(
  deps: CloseDeps,
  userId: string,
  context: CommandContext,
  /** Asked before each page: false stops the work (a deactivation undone meanwhile); an erasure passes none. */
  stillApplies?: () => Promise<boolean>,
  /** The closing event's log position: only appointments requested before it are closed (requested-before.ts). */
  closedAt?: number,
): Promise<{ cancelled: number; withdrawn: number }> {
  const now = deps.clock();
  const pageSize = deps.pageSize ?? SWEEP_PAGE_SIZE;
  let cancelled = 0;
  let withdrawn = 0;
  const closeSlot = async (slotId: number, appointmentId: string | null) => {
    withdrawn += await withdrawClosedDoctorsSlot(deps.eventStore, slotId, appointmentId, context);
  };
  await forEachPage<OpenAppointmentRef>(
    whileStill(stillApplies, (after, limit) => deps.lookups.openAppointmentsOf('patient', userId, now, { after, limit })),
    pageSize,
    (appointment) =>
      unlessSettled(async () => {
        const { loaded, requestedBefore } = await appointmentBefore(deps.eventStore, appointment.appointment_id, closedAt);
        if (!requestedBefore) return;
        const result = await handleCommand(
          deps.eventStore,
          streams.appointment(appointment.appointment_id),
          appointmentDecider,
          { type: 'CloseForClosedPatient', data: { now, consultation_begun: await consultationBegun(deps.eventStore, appointment, now) } },
          context,
          loaded,
        );
        cancelled += result.events.length;
      }),
  );
  // A closed doctor's appointments not yet started are closed as for any doctor who takes no bookings (rejected or
  // cancelled by the system, 'Doctor is no longer available'); their slots must not open again: released here (the
  // slot releaser's own release then finds nothing to do) and withdrawn at once.
  cancelled += await closeUnavailableDoctorsAppointments(
    deps,
    userId,
    context,
    (appointment) => unlessSettled(() => closeSlot(appointment.slot_id, appointment.appointment_id)),
    stillApplies,
    closedAt,
  );
  await forEachPage<OpenSlotRef>(
    whileStill(stillApplies, (after, limit) => deps.lookups.openSlotsOf(userId, now, { after, limit })),
    pageSize,
    (slot) => unlessSettled(() => closeSlot(slot.slot_id, null)),
  );
  return { cancelled, withdrawn };
}

/** Closes each account as it is deactivated or erased, caused by that event. */
export function startAccountCloser(deps: CloseDeps & { checkpoints: CheckpointStore; logger: Logger }) {
  return startProcessManager({
    name: 'account-closer',
    ...deps,
    handles: ['UserDeactivated', 'PersonalDataErased'],
    ignores: [
      'sessions', 'UserLanguageChosen', 'institutions', 'schedule', 'appointments', 'consultations', 'records', 'blog', 'messaging', 'phone', 'waitlist', 'wallet',
      'UserRegistered', 'UserProfileUpdated', 'PatientSubscribedToDoctor', 'UserReactivated', 'PasswordSet', 'MessagingPreferencesSet', 'PhoneNumberVerified', 'EmailClaimed', 'DoctorNumberAssigned', 'DoctorRegistered', 'DoctorProfileUpdated', 'DoctorBookingRulesSet', 'DoctorBookingRulesCleared',
      'ConsentGiven', 'ConsentWithdrawn', 'PersonalDataAccessed', 'ClinicalRecordsDestroyed',
    ],
    handle: async (event) => {
      const { user_id } = event.data;
      // A deactivation undone before it was handled (a redelivery, or an admin's quick correction) closes nothing, and
      // one undone while it is handled stops at the next page: slots opened and appointments booked after the
      // reactivation stay. An erasure is never undone.
      const stillClosed = event.type === 'UserDeactivated' ? async () => !(await accountStanding(deps.eventStore, user_id))?.active : undefined;
      if (stillClosed && !(await stillClosed())) return;
      // An appointment requested just before the account closed may not be in the read model yet: wait for it (a
      // stuck projection holds this back at most READ_MODEL_WAIT_MS; what the read model shows is closed then).
      if ((await deps.lookups.appointmentsReached?.(event.position, READ_MODEL_WAIT_MS)) === false) {
        deps.logger.warn({ processManager: 'account-closer', position: event.position }, 'appointments read model behind; closing what it shows');
      }
      const context = systemContext(deps.clock(), event.event_id, event.metadata.correlation_id);
      await closeAccount(deps, user_id, context, stillClosed, event.position);
      // An erased person's waitlist places close (as a doctor's, their patients' places too). A deactivated one's stay:
      // nothing is offered to an inactive patient or of a closed doctor's withdrawn slots, and a reactivation finds them.
      if (event.type === 'PersonalDataErased') await closePlacesOf(deps, user_id, context);
    },
  });
}
