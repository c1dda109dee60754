import { streams } from '@telemed/contracts';
import type { EventStore, Logger } from '@telemed/platform';
import { handleCommand, systemContext } from '../decider';
import { appointmentDecider } from '../appointments/appointment';
import { slotDecider } from '../schedule/slot';
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
export interface SweepLookups {
  requestsStartedBefore(now: Date, page: { after: PendingRequest | null; limit: number }): Promise<PendingRequest[]>;
  reservationsMadeBefore(cutoff: Date, page: { after: PendingReservation | null; limit: number }): Promise<PendingReservation[]>;
}

interface SweepDeps {
  eventStore: EventStore;
  lookups: SweepLookups;
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

/** A reservation whose appointment never appeared (the process died between the two writes) is released. */
export async function healOrphanedReservations(deps: SweepDeps & { graceMs: number }) {
  const now = deps.clock();
  const cutoff = new Date(now.getTime() - deps.graceMs);
  let healed = 0;
  await forEachPage<PendingReservation>(
    (after, limit) => deps.lookups.reservationsMadeBefore(cutoff, { after, limit }),
    deps.pageSize ?? SWEEP_PAGE_SIZE,
    async (reservation) => {
      // The read model may lag behind the log: the appointment's own stream decides.
      const appointment = await deps.eventStore.readStream(streams.appointment(reservation.appointment_id));
      if (appointment.length > 0) return;
      const result = await handleCommand(
        deps.eventStore,
        streams.slot(reservation.slot_id),
        slotDecider,
        { type: 'ReleaseSlot', data: { appointment_id: reservation.appointment_id, reason: 'orphaned' } },
        systemContext(now, reservation.reserved_event_id),
      );
      healed += result.events.length;
    },
  );
  return healed;
}

/** Runs both sweeps now and then every `intervalMs`; returns a stop function. */
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
        if (expired || healed) deps.logger.info({ expired, healed }, 'sweep');
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
