import { API_TEXTS } from '@telemed/contracts';
import type { EventStore, ReadStore, TokenCheck } from '@telemed/platform';
import { ProjectionRunner } from './projection-runner';
import type { AppointmentDoc, SessionDoc, SlotDoc, UserDoc } from './projections';
import type { Projection } from './projections';

/** Refuses tokens of deactivated accounts and ended sessions, from the read models. */
export function readModelTokenCheck(readStore: ReadStore): TokenCheck {
  const users = readStore.collection<UserDoc>('users');
  const sessions = readStore.collection<SessionDoc>('sessions');
  return async (claims) => {
    if ((await users.get(claims.user_id))?.active === false) return API_TEXTS.accountDisabled;
    if (claims.session_id && (await sessions.get(claims.session_id))?.ended_at) return API_TEXTS.sessionEnded;
    return null;
  };
}

/** The ids the write side's sweeps look for (expired requests, orphaned reservations). */
export function sweepLookups(readStore: ReadStore) {
  const slots = readStore.collection<SlotDoc>('slots');
  const appointments = readStore.collection<AppointmentDoc>('appointments');
  return {
    requestsStartedBefore: async (now: Date) =>
      (await appointments.find({ status: 'requested', start: { $lte: now.toISOString() } })).map((a) => a.appointment_id),
    reservationsMadeBefore: async (cutoff: Date) =>
      (await slots.find({ status: 'reserved', reserved_at: { $lte: cutoff.toISOString() } })).map((s) => ({
        slot_id: s.slot_id,
        appointment_id: s.appointment_id!,
        reserved_event_id: s.reserved_event_id!,
      })),
  };
}

/**
 * For processes that do not run the projections themselves: waits until every projection's stored checkpoint has
 * reached a position (polling the read store), up to a timeout.
 */
export function checkpointWaiter(readStore: ReadStore, projections: Projection[]) {
  return async (position: number, timeoutMs = 2000): Promise<boolean> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const checkpoints = await Promise.all(projections.map((p) => readStore.getCheckpoint(p.name)));
      if (checkpoints.every((c) => (c?.position ?? 0) >= position)) return true;
      if (Date.now() > deadline) return false;
      await new Promise((r) => setTimeout(r, 50));
    }
  };
}

/**
 * A service that reads the read models but does not project them itself needs a projector somewhere. With the
 * in-memory read store there is none to share, so such a process follows the log on its own.
 */
export async function followLogIfReadModelsAreLocal(
  adapters: { kinds: { readStore: 'memory' | 'mongodb' }; eventStore: EventStore; readStore: ReadStore },
  projections: Projection[],
): Promise<{ stop(): Promise<void> } | null> {
  if (adapters.kinds.readStore !== 'memory') return null;
  const runner = new ProjectionRunner({ eventStore: adapters.eventStore, readStore: adapters.readStore, projections });
  await runner.catchUp();
  await runner.start();
  return runner;
}
