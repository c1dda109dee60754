import { streams } from '@telemed/contracts';
import type { EventStore, Logger } from '@telemed/platform';
import { handleCommand, systemContext } from '../decider';
import { appointmentDecider } from '../appointments/appointment';
import { slotDecider } from '../schedule/slot';

/** Ids the sweeps look up in the read models (lag is harmless: every command re-checks its stream). */
export interface SweepLookups {
  requestsStartedBefore(now: Date): Promise<string[]>;
  reservationsMadeBefore(cutoff: Date): Promise<Array<{ slot_id: number; appointment_id: string; reserved_event_id: string }>>;
}

/** Requests left unanswered until their start expire (and so free their slot). */
export async function expireStaleRequests(deps: { eventStore: EventStore; lookups: SweepLookups; clock: () => Date }) {
  const now = deps.clock();
  let expired = 0;
  for (const appointmentId of await deps.lookups.requestsStartedBefore(now)) {
    const result = await handleCommand(
      deps.eventStore,
      streams.appointment(appointmentId),
      appointmentDecider,
      { type: 'ExpireAppointment', data: { now } },
      systemContext(now, null),
    );
    expired += result.events.length;
  }
  return expired;
}

/** A reservation whose appointment never appeared (the process died between the two writes) is released. */
export async function healOrphanedReservations(deps: {
  eventStore: EventStore;
  lookups: SweepLookups;
  clock: () => Date;
  graceMs: number;
}) {
  const now = deps.clock();
  let healed = 0;
  for (const reservation of await deps.lookups.reservationsMadeBefore(new Date(now.getTime() - deps.graceMs))) {
    const appointment = await deps.eventStore.readStream(streams.appointment(reservation.appointment_id));
    if (appointment.length > 0) continue;
    const result = await handleCommand(
      deps.eventStore,
      streams.slot(reservation.slot_id),
      slotDecider,
      { type: 'ReleaseSlot', data: { appointment_id: reservation.appointment_id, reason: 'orphaned' } },
      systemContext(now, reservation.reserved_event_id),
    );
    healed += result.events.length;
  }
  return healed;
}

/** Runs both sweeps now and then every `intervalMs`; returns a stop function. */
export function startSweeps(deps: {
  eventStore: EventStore;
  lookups: SweepLookups;
  clock: () => Date;
  graceMs: number;
  intervalMs: number;
  logger: Logger;
}): { runNow(): Promise<void>; stop(): void } {
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
