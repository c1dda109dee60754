import { NO_SHOW_GRACE_MINUTES, clinicalRecordsSubject, streams } from '@telemed/contracts';
import { keyRingOf, type EventStore, type Logger } from '@telemed/platform';
import { handleCommand, systemContext } from '../decider';
import { appointmentDecider } from '../appointments/appointment';
import { handleSlotCommand } from '../schedule/slot-folds';
import { joinedConsultation } from '../appointments/service';
import { closeEndedPlaces, endExpiredOffers, type WaitlistLookups } from '../waitlist/service';
import { handleUserCommand } from '../users/load-user';
import { forEachPage, SWEEP_PAGE_SIZE } from './pages';

export interface PendingRequest {
  appointment_id: string;
  start: string;
}

export interface PendingReservation {
  slot_id: number;
  appointment_id: string;
  reserved_event_id: string;
  reserved_at: string;
}

/**
 * What the sweeps look up in the read models: only work still pending (requests awaiting an answer, reservations
 * awaiting their appointment), through indexed queries, a page at a time after a cursor (the last item of the previous
 * page), oldest first. Lag is harmless: every command re-checks its stream.
 */
export interface DueRetention {
  user_id: string;
  destroy_after: string;
}

export interface SweepLookups {
  requestsStartedBefore(now: Date, page: { after: PendingRequest | null; limit: number }): Promise<PendingRequest[]>;
  /**
   * Confirmed appointments that ended by `cutoff`, started in the NO_SHOW_SWEEP_WINDOW_DAYS before it (the no-show
   * sweep's: those both parties came to are completed).
   */
  confirmedEndedBy(cutoff: Date, page: { after: PendingRequest | null; limit: number }): Promise<PendingRequest[]>;
  /** Appointments whose doctor's offer of other times was left unanswered until `now` (its `start` is the offer's end). */
  proposalsExpiredBy(now: Date, page: { after: PendingRequest | null; limit: number }): Promise<PendingRequest[]>;
  reservationsMadeBefore(cutoff: Date, page: { after: PendingReservation | null; limit: number }): Promise<PendingReservation[]>;
  /** Erased people whose clinical records' retention period has ended by `now`. */
  clinicalRecordsDueBy(now: Date, page: { after: DueRetention | null; limit: number }): Promise<DueRetention[]>;
}

interface SweepDeps {
  eventStore: EventStore;
  lookups: SweepLookups & WaitlistLookups;
  clock: () => Date;
  pageSize?: number;
}

/** Requests left unanswered until their start expire (and so free their slot). */
export async function expireStaleRequests(deps: SweepDeps) {
  const now = deps.clock();
  let expired = 0;
  await forEachPage<PendingRequest>(
    (after, limit) => deps.lookups.requestsStartedBefore(now, { after, limit }),
    deps.pageSize ?? SWEEP_PAGE_SIZE,
    async (request) => {
      const result = await handleCommand(
        deps.eventStore,
        streams.appointment(request.appointment_id),
        appointmentDecider,
        { type: 'ExpireAppointment', data: { now } },
        systemContext(now, null),
      );
      expired += result.events.length;
    },
  );
  return expired;
}

/**
 * A confirmed appointment whose end and grace have passed with a party never having joined its consultation is closed
 * as that party's no-show (issue 35). No join is accepted after the end, so who joined is final when this reads it.
 */
export async function closeNoShows(deps: SweepDeps) {
  const now = deps.clock();
  const cutoff = new Date(now.getTime() - NO_SHOW_GRACE_MINUTES * 60_000);
  let closed = 0;
  await forEachPage<PendingRequest>(
    (after, limit) => deps.lookups.confirmedEndedBy(cutoff, { after, limit }),
    deps.pageSize ?? SWEEP_PAGE_SIZE,
    async (appointment) => {
      const joined = await joinedConsultation(deps.eventStore, appointment.appointment_id);
      const result = await handleCommand(
        deps.eventStore,
        streams.appointment(appointment.appointment_id),
        appointmentDecider,
        { type: 'CloseNoShow', data: { now, joined } },
        systemContext(now, null),
      );
      closed += result.events.length;
    },
  );
  return closed;
}

/** An offer of other times left unanswered past its time cancels its appointment, on the doctor's side (issue 35). */
export async function closeUnansweredProposals(deps: SweepDeps) {
  const now = deps.clock();
  let closed = 0;
  await forEachPage<PendingRequest>(
    (after, limit) => deps.lookups.proposalsExpiredBy(now, { after, limit }),
    deps.pageSize ?? SWEEP_PAGE_SIZE,
    async (appointment) => {
      const result = await handleCommand(
        deps.eventStore,
        streams.appointment(appointment.appointment_id),
        appointmentDecider,
        { type: 'CloseUnansweredProposal', data: { now } },
        systemContext(now, null),
      );
      closed += result.events.length;
    },
  );
  return closed;
}

/**
 * A reservation whose appointment never appeared (the process died between the two writes) is released, and so is a
 * slot reserved to move an appointment that never moved there (issue 35).
 */
export async function healOrphanedReservations(deps: SweepDeps & { graceMs: number }) {
  const now = deps.clock();
  const cutoff = new Date(now.getTime() - deps.graceMs);
  let healed = 0;
  await forEachPage<PendingReservation>(
    (after, limit) => deps.lookups.reservationsMadeBefore(cutoff, { after, limit }),
    deps.pageSize ?? SWEEP_PAGE_SIZE,
    async (reservation) => {
      // The read model may lag behind the log: the appointment's own stream decides, and the decision is recorded
      // there (AppointmentVoided, expected: no stream) before the slot is released, so a booking whose request comes
      // only now is refused instead of standing on a slot offered again; a request recorded first leaves it reserved.
      const voided = await handleCommand(
        deps.eventStore,
        streams.appointment(reservation.appointment_id),
        appointmentDecider,
        { type: 'VoidUnrequestedAppointment', data: { appointment_id: reservation.appointment_id, slot_id: reservation.slot_id } },
        systemContext(now, reservation.reserved_event_id),
      );
      if (voided.state.status !== 'none') {
        // The appointment exists: this was a move's reservation. The move is refused from now on (AppointmentHoldReleased,
        // on the appointment's stream) unless it was recorded first, in which case the slot is the appointment's.
        const unused = await handleCommand(
          deps.eventStore,
          streams.appointment(reservation.appointment_id),
          appointmentDecider,
          { type: 'ReleaseUnusedHold', data: { slot_id: reservation.slot_id } },
          systemContext(now, reservation.reserved_event_id),
        );
        if (unused.state.status === 'none' || !unused.state.released_holds.includes(reservation.slot_id)) return;
      }
      const result = await handleSlotCommand(
        deps.eventStore,
        reservation.slot_id,
        { type: 'ReleaseSlot', data: { appointment_id: reservation.appointment_id, reason: 'orphaned' } },
        systemContext(now, reservation.reserved_event_id),
      );
      healed += result.events.length;
    },
  );
  return healed;
}

/**
 * An erased person's clinical records are kept under the legal hold until their retention period ends; then their
 * key is destroyed (crypto-shredding them everywhere) and ClinicalRecordsDestroyed recorded, which blanks the read
 * models. Key first, event second: a failure in between is completed by the next sweep (destroying twice is harmless).
 */
export async function endClinicalRetentions(deps: SweepDeps) {
  const keys = keyRingOf(deps.eventStore);
  if (!keys) return 0;
  const now = deps.clock();
  let ended = 0;
  await forEachPage<DueRetention>(
    (after, limit) => deps.lookups.clinicalRecordsDueBy(now, { after, limit }),
    deps.pageSize ?? SWEEP_PAGE_SIZE,
    async (due) => {
      await keys.destroy(clinicalRecordsSubject(due.user_id));
      const result = await handleUserCommand(deps.eventStore, due.user_id, { type: 'DestroyClinicalRecords' }, systemContext(now, null));
      ended += result.events.length;
    },
  );
  return ended;
}

/** Runs the sweeps now and then every `intervalMs`; returns a stop function. */
export function startSweeps(deps: SweepDeps & { graceMs: number; intervalMs: number; logger: Logger }): {
  runNow(): Promise<void>;
  stop(): void;
} {
  let running: Promise<void> | null = null;
  const runNow = () => {
    running ??= (async () => {
      try {
        const expired = await expireStaleRequests(deps);
        const healed = await healOrphanedReservations(deps);
        const noShows = await closeNoShows(deps);
        const proposalsClosed = await closeUnansweredProposals(deps);
        const offersEnded = await endExpiredOffers(deps);
        const placesEnded = await closeEndedPlaces(deps);
        const retentionsEnded = await endClinicalRetentions(deps);
        if (expired || healed || noShows || proposalsClosed || offersEnded || placesEnded || retentionsEnded) {
          deps.logger.info({ expired, healed, noShows, proposalsClosed, offersEnded, placesEnded, retentionsEnded }, 'sweep');
        }
      } catch (error) {
        deps.logger.error({ err: error }, 'sweep failed');
      } finally {
        running = null;
      }
    })();
    return running;
  };
  const timer = setInterval(() => void runNow(), deps.intervalMs);
  timer.unref();
  return { runNow, stop: () => clearInterval(timer) };
}
