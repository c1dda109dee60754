import { API_TEXTS, streams } from '@telemed/contracts';
import type { CheckpointStore, EventStore, Logger } from '@telemed/platform';
import { handleCommand, systemContext, type CommandContext } from '../decider';
import { appointmentDecider, type AppointmentState } from '../appointments/appointment';
import { deactivatesDoctor, doctorDeactivationsFold } from '../institutions/doctor-deactivations';
import { forEachPage, SWEEP_PAGE_SIZE, whileStill } from './pages';
import { StreamFolds } from '../stream-folds';
import { startProcessManager } from './subscriber';
import { READ_MODEL_WAIT_MS, type AccountLookups, type OpenAppointmentRef } from './lookups';
import { consultationBegun } from './consultation-begun';
import { appointmentBefore } from './requested-before';

interface UnavailableDoctorDeps {
  eventStore: EventStore;
  lookups: Pick<AccountLookups, 'openAppointmentsOf' | 'appointmentsReached'>;
  clock: () => Date;
  pageSize?: number;
}

/**
 * A doctor who takes no bookings any more leaves no patient waiting on them: each of their appointments not yet
 * started (neither its start time come nor its consultation begun: appointment.ts, leftToItsConsultation) is closed on the doctor's side by the system, with the reason 'Doctor is no longer available' (a pending
 * request rejected, a confirmed appointment cancelled); the slot releaser then frees each slot as after any rejection
 * or cancellation, and the notifier tells the patient as usual. Found through the indexed query of the doctor's open
 * appointments (requested or confirmed, not ended), a page at a time. Idempotent: an appointment already closed
 * records nothing. `closed` is called with each appointment that ends up closed (this time or before).
 */
export async function closeUnavailableDoctorsAppointments(
  deps: UnavailableDoctorDeps,
  doctorId: string,
  context: CommandContext,
  closed?: (appointment: OpenAppointmentRef, state: AppointmentState) => Promise<void>,
  /** Asked before each page: false stops the work (its reason was undone meanwhile). */
  stillApplies?: () => Promise<boolean>,
  /** The closing event's log position: only appointments requested before it are closed (requested-before.ts). */
  closedAt?: number,
): Promise<number> {
  const now = deps.clock();
  let recorded = 0;
  await forEachPage<OpenAppointmentRef>(
    whileStill(stillApplies, (after, limit) => deps.lookups.openAppointmentsOf('doctor', doctorId, now, { after, limit })),
    deps.pageSize ?? SWEEP_PAGE_SIZE,
    async (appointment) => {
      const { loaded, requestedBefore } = await appointmentBefore(deps.eventStore, appointment.appointment_id, closedAt);
      if (!requestedBefore) return;
      const result = await handleCommand(
        deps.eventStore,
        streams.appointment(appointment.appointment_id),
        appointmentDecider,
        {
          type: 'CloseForUnavailableDoctor',
          data: { reason: API_TEXTS.doctorNoLongerAvailable, now, consultation_begun: await consultationBegun(deps.eventStore, appointment, now) },
        },
        context,
        loaded,
      );
      recorded += result.events.length;
      if (closed && (result.state.status === 'rejected' || result.state.status === 'cancelled')) await closed(appointment, result.state);
    },
  );
  return recorded;
}

/**
 * An institution deactivates one of its doctors: by the booking rule (appointments/bookable.ts: a doctor deactivated
 * by any active institution they practise through takes no bookings) the doctor is then not bookable at all, so all
 * their appointments not yet started are closed, whichever way they were booked (an appointment does not record an
 * institution). Acted on only while that deactivation still holds when the event is handled: a deactivation already
 * undone (activated again, removed from the staff, the institution disbanded) closes nothing, so a redelivery after a
 * restart never closes appointments booked after a reactivation. Reactivation reopens nothing: closed appointments
 * stay closed (their slots were released and are offered again once the doctor takes bookings).
 * A deactivated account is the account closer's (close-accounts.ts), which closes a doctor's appointments the same way.
 */
export function startUnavailableDoctorCloser(deps: UnavailableDoctorDeps & { checkpoints: CheckpointStore; logger: Logger }) {
  // Asked before every page of a doctor's appointments: a kept fold reads only the institution's events since the last look.
  const deactivations = new StreamFolds(deps.eventStore, doctorDeactivationsFold);
  return startProcessManager({
    name: 'unavailable-doctor-closer',
    ...deps,
    handles: ['InstitutionDoctorDeactivated'],
    ignores: [
      'accounts', 'sessions', 'privacy', 'schedule', 'appointments', 'consultations', 'records', 'blog', 'messaging', 'phone', 'waitlist', 'wallet',
      'InstitutionSlugClaimed', 'InstitutionCreated', 'InstitutionStaffAdded', 'InstitutionStaffRemoved', 'InstitutionDisbanded', 'InstitutionUpdated',
      'InstitutionStaffInvited', 'InstitutionInvitationAccepted', 'InstitutionInvitationDeclined', 'InstitutionInvitationRevoked', 'InstitutionDoctorActivated', 'InstitutionStaffRoleChanged', 'InstitutionBookingRulesSet',
    ],
    handle: async (event) => {
      const { institution_id, user_id } = event.data;
      const holds = async () => deactivatesDoctor((await deactivations.current(streams.institution(institution_id))).state, user_id);
      if (!(await holds())) return;
      // A request booked just before the deactivation may not be in the read model yet. After the wait the lookup goes
      // ahead anyway (a stuck projection must not hold back every later event): the rare miss is logged.
      const reached = (await deps.lookups.appointmentsReached?.(event.position, READ_MODEL_WAIT_MS)) ?? true;
      if (!reached) deps.logger.warn({ processManager: 'unavailable-doctor-closer', position: event.position }, 'appointments read model behind; closing what it shows');
      // The decision never refuses (a closed or started appointment records nothing); a failure is retried.
      // Asked again before each page: a reactivation while this runs leaves what is booked after it alone.
      await closeUnavailableDoctorsAppointments(deps, user_id, systemContext(deps.clock(), event.event_id, event.metadata.correlation_id), undefined, holds, event.position);
    },
  });
}
