import { API_TEXTS, streams, type EventData } from '@telemed/contracts';
import type { CheckpointStore, EventStore, Logger } from '@telemed/platform';
import { handleCommand, systemContext } from '../decider';
import { appointmentDecider } from '../appointments/appointment';
import { BookingChecks, type BookingLookups } from '../appointments/bookable';
import { accountStandingFold } from '../users/account-standing';
import { StreamFolds } from '../stream-folds';
import { startProcessManager } from './subscriber';
import { withdrawClosedDoctorsSlot } from './close-accounts';

interface LateRequestDeps {
  eventStore: EventStore;
  lookups: BookingLookups;
  clock: () => Date;
}

/**
 * A booking checks that the doctor takes bookings and that the patient may book, then writes the slot's reservation
 * and the request: a deactivation, a closed account or a doctor's deactivation by an institution can land between that
 * check and the request's append. The closers (close-accounts.ts, unavailable-doctor.ts) close what the read model
 * shows once it has reached their event, so a request appended after that event is not among it. Each request is
 * therefore looked at again once recorded, on the streams as they are then: one whose patient's account is closed or
 * whose doctor takes no bookings is closed as the closers would (anything before it in the log is theirs; anything
 * after is seen here). Idempotent: a request already closed, or left to its consultation, records nothing.
 */
/** The streams a request is checked against, each a kept fold that reads only its new events (as a booking's are). */
export interface LateRequestChecks {
  bookings: BookingChecks;
  accounts: StreamFolds<ReturnType<typeof accountStandingFold.initialState>, never>;
}

export async function closeLateRequest(deps: LateRequestDeps, checks: LateRequestChecks, request: EventData<'AppointmentRequested'>, context: ReturnType<typeof systemContext>) {
  const stream = streams.appointment(request.appointment_id);
  const now = deps.clock();
  // One whose time has come is left as the closers leave it (its consultation's, or the expiry sweep's): no reads, so
  // a first start over a long log passes old requests by.
  if (new Date(request.start).getTime() <= now.getTime()) return null;
  const { state: patient } = await checks.accounts.current(streams.user(request.patient_id));
  let closed;
  if (patient && !patient.active) {
    closed = await handleCommand(deps.eventStore, stream, appointmentDecider, { type: 'CloseForClosedPatient', data: { now, consultation_begun: false } }, context);
  } else if (!(await checks.bookings.doctorAcceptsBookings(request.doctor_id))) {
    closed = await handleCommand(
      deps.eventStore,
      stream,
      appointmentDecider,
      { type: 'CloseForUnavailableDoctor', data: { reason: API_TEXTS.doctorNoLongerAvailable, now, consultation_begun: false } },
      context,
    );
  } else return null;
  // A doctor whose own account is closed keeps no slot open, as the account closer leaves them: the slot of a request
  // it never saw is withdrawn here (a doctor deactivated by an institution only is the unavailable-doctor closer's,
  // which frees their slots for when they take bookings again).
  const { state: doctor } = await checks.accounts.current(streams.user(request.doctor_id));
  if (doctor && !doctor.active && (closed.state.status === 'rejected' || closed.state.status === 'cancelled')) {
    await withdrawClosedDoctorsSlot(deps.eventStore, request.slot_id, request.appointment_id, context);
  }
  return closed;
}

/** Events after which a booking's earlier checks may no longer hold (an account or a doctor's membership changed). */
const STANDING_CHANGES = ['UserDeactivated', 'PersonalDataErased', 'InstitutionDoctorDeactivated', 'InstitutionDisbanded', 'InstitutionStaffRemoved', 'InstitutionStaffRoleChanged'] as const;

/** Far longer than any booking takes from its checks to its request's append, or a closing command to its append. */
export const BOOKING_RACE_WINDOW_MS = 5 * 60_000;

/** Saved beside the closer's checkpoint for a later start: no change of standing was seen since the log's start. */
export const NO_CHANGE_SEEN = 1;

/**
 * Whether a request recorded at `requestedAt` may have been checked before a change of standing that precedes it in
 * the log: only then are its streams read again. The time of the last change is saved beside the closer's checkpoint,
 * so a later start knows it; where it is not known (a checkpoint saved before this rule), the first window of requests
 * after the start is looked at too.
 */
export class StandingChangeWindow {
  private lastChange: number | null = null;
  private firstSeen: number | null = null;

  /**
   * What an earlier run saved (the last change's time, NO_CHANGE_SEEN, or 0: nothing), and whether this run reads the
   * log from its start (then it meets every change itself).
   */
  restore(saved: number, fromStart: boolean): void {
    if (saved > 0) this.lastChange = saved;
    else if (fromStart) this.lastChange = NO_CHANGE_SEEN;
  }

  changed(at: number): void {
    this.lastChange = at;
  }

  mayHaveRaced(requestedAt: number): boolean {
    this.firstSeen ??= requestedAt;
    const since = this.lastChange ?? this.firstSeen;
    return requestedAt - since < BOOKING_RACE_WINDOW_MS;
  }
}

const CLOSER = 'late-request-closer';
const LAST_CHANGE = `${CLOSER}#standing-changed-at`;

export async function startLateRequestCloser(deps: LateRequestDeps & { checkpoints: CheckpointStore; logger: Logger }) {
  const checks = { bookings: new BookingChecks(deps.eventStore, deps.lookups), accounts: new StreamFolds(deps.eventStore, accountStandingFold) };
  const window = new StandingChangeWindow();
  const [from, saved] = await Promise.all([deps.checkpoints.load(CLOSER), deps.checkpoints.load(LAST_CHANGE)]);
  window.restore(saved, from === 0);
  if (from === 0 && saved === 0) await deps.checkpoints.save(LAST_CHANGE, NO_CHANGE_SEEN);
  return startProcessManager({
    name: CLOSER,
    ...deps,
    handles: ['AppointmentRequested', ...STANDING_CHANGES],
    ignores: [
      'sessions', 'UserLanguageChosen', 'schedule', 'consultations', 'records', 'blog', 'messaging', 'phone', 'waitlist', 'wallet',
      'UserRegistered', 'UserProfileUpdated', 'PatientSubscribedToDoctor', 'UserReactivated', 'PasswordSet', 'MessagingPreferencesSet', 'PhoneNumberVerified', 'EmailClaimed', 'DoctorNumberAssigned', 'DoctorRegistered', 'DoctorProfileUpdated', 'DoctorBookingRulesSet', 'DoctorBookingRulesCleared',
      'ConsentGiven', 'ConsentWithdrawn', 'PersonalDataAccessed', 'ClinicalRecordsDestroyed',
      'InstitutionSlugClaimed', 'InstitutionCreated', 'InstitutionStaffAdded', 'InstitutionUpdated', 'InstitutionStaffInvited',
      'InstitutionInvitationAccepted', 'InstitutionInvitationDeclined', 'InstitutionInvitationRevoked', 'InstitutionDoctorActivated', 'InstitutionBookingRulesSet',
      'AppointmentApproved', 'AppointmentRejected', 'AppointmentCancelled', 'AppointmentExpired', 'AppointmentVoided', 'AppointmentConsultationBegun', 'AppointmentCompleted',
      // A move keeps its doctor, whose standing the move's own reservation checked: the unavailable-doctor closer has it.
      'AppointmentRescheduled', 'AppointmentHoldReleased', 'AppointmentNoShow', 'AppointmentTimesProposed', 'AppointmentFollowUpOffered', 'AppointmentFollowUpBooked', 'AppointmentFollowUpWithdrawn',
    ],
    handle: async (event) => {
      const at = new Date(event.metadata.occurred_at).getTime();
      if (event.type !== 'AppointmentRequested') {
        window.changed(at);
        return deps.checkpoints.save(LAST_CHANGE, at); // rare: one write per change of someone's standing
      }
      // Most requests follow no change of anyone's standing: they cost no reads.
      if (!window.mayHaveRaced(at)) return;
      await closeLateRequest(deps, checks, event.data, systemContext(deps.clock(), event.event_id, event.metadata.correlation_id));
    },
  });
}
