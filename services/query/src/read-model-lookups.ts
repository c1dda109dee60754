import { instantRange } from '@telemed/contracts';
import type { EventStore, Filter, ReadStore } from '@telemed/platform';
import { ProjectionRunner } from './projection-runner';
import type { AppointmentDoc, PendingReservationDoc, SlotDoc } from './projections';
import { PENDING_RESERVATIONS } from './schedule/pending-reservations';
import { CLINICAL_RETENTION, type ClinicalRetentionDoc } from './records/retention-projection';
import type { Projection } from './projections';
import { appointmentsProjection } from './appointments/projection';
import { bookingLookups } from './users/bookable-doctors';

/** Documents after a cursor in the order (field ascending, then _id): the next page of a keyset-paged query. */
export function afterCursor(field: string, cursor: { value: string; id: string } | null): Filter {
  if (!cursor) return {};
  return { $or: [{ [field]: { $gt: cursor.value } }, { [field]: cursor.value, _id: { $gt: cursor.id } }] };
}

/**
 * What the write side's sweeps look for: requests still awaiting an answer (the `status` index narrows appointments
 * to those), and reservations still awaiting their appointment (a collection of only those). Neither query ever
 * sees a confirmed, completed or released booking, so the sweeps cost what is pending, not the length of history.
 */
export function sweepLookups(readStore: ReadStore) {
  const pending = readStore.collection<PendingReservationDoc>(PENDING_RESERVATIONS);
  const appointments = readStore.collection<AppointmentDoc>('appointments');
  const slots = readStore.collection<SlotDoc>('slots');
  const retention = readStore.collection<ClinicalRetentionDoc>(CLINICAL_RETENTION);
  const appointmentsAt = checkpointWaiter(readStore, [appointmentsProjection]);
  return {
    // The institutions a doctor practises through (a request recorded late is checked again: late-requests.ts).
    ...bookingLookups(readStore),
    // A process manager fed by an event looks up the appointments that event concerns only once the appointments read
    // model has applied everything before it (it is fed by another subscription, which may be behind).
    appointmentsReached: (position: number, timeoutMs: number) => appointmentsAt(position, timeoutMs),
    requestsStartedBefore: async (now: Date, page: { after: { appointment_id: string; start: string } | null; limit: number }) =>
      (
        await appointments.find(
          {
            status: 'requested',
            start: instantRange({ lte: now }),
            ...afterCursor('start', page.after && { value: page.after.start, id: page.after.appointment_id }),
          },
          { sort: { start: 1, _id: 1 }, limit: page.limit },
        )
      ).map((a) => ({ appointment_id: a.appointment_id, start: a.start })),
    // Closing an account: its appointments still to come (the (owner, start) index from a day back: none lasts a day)
    // and a doctor's open slots ahead (the (doctor_id, start) index).
    openAppointmentsOf: async (role: 'patient' | 'doctor', userId: string, now: Date, page: { after: { appointment_id: string; start: string } | null; limit: number }) =>
      (
        await appointments.find(
          {
            [role === 'patient' ? 'patient_id' : 'doctor_id']: userId,
            status: { $in: ['requested', 'confirmed'] },
            end: instantRange({ gt: now }),
            start: instantRange({ gt: now.getTime() - 86_400_000 }),
            ...afterCursor('start', page.after && { value: page.after.start, id: page.after.appointment_id }),
          },
          { sort: { start: 1, _id: 1 }, limit: page.limit },
        )
      ).map((a) => ({ appointment_id: a.appointment_id, slot_id: a.slot_id, start: a.start })),
    openSlotsOf: async (doctorId: string, now: Date, page: { after: { slot_id: number; start: string } | null; limit: number }) =>
      (
        await slots.find(
          {
            doctor_id: doctorId,
            status: 'open',
            start: page.after ? { $gt: page.after.start } : instantRange({ gt: now }),
          },
          { sort: { start: 1 }, limit: page.limit },
        )
      ).map((s) => ({ slot_id: s.slot_id, start: s.start })),
    // Erased people whose clinical records' retention has ended (a collection of only the running ones).
    clinicalRecordsDueBy: async (now: Date, page: { after: { user_id: string; destroy_after: string } | null; limit: number }) =>
      (
        await retention.find(
          {
            destroy_after: { $lte: now.toISOString() },
            ...afterCursor('destroy_after', page.after && { value: page.after.destroy_after, id: page.after.user_id }),
          },
          { sort: { destroy_after: 1, _id: 1 }, limit: page.limit },
        )
      ).map((r) => ({ user_id: r.user_id, destroy_after: r.destroy_after })),
    reservationsMadeBefore: async (cutoff: Date, page: { after: { appointment_id: string; reserved_at: string } | null; limit: number }) =>
      (
        await pending.find(
          {
            reserved_at: { $lte: cutoff.toISOString() },
            ...afterCursor('reserved_at', page.after && { value: page.after.reserved_at, id: page.after.appointment_id }),
          },
          { sort: { reserved_at: 1, _id: 1 }, limit: page.limit },
        )
      ).map((r) => ({ slot_id: r.slot_id, appointment_id: r.appointment_id, reserved_event_id: r.reserved_event_id, reserved_at: r.reserved_at })),
  };
}

/**
 * For processes that do not run the projections themselves: waits until every projection's stored checkpoint has
 * reached a position (polling the read store), up to a timeout. A checkpoint of another version is an old generation
 * frozen while its new one is built beside it (the projector's start after a version bump): it will not move, so it
 * holds nobody back.
 */
export function checkpointWaiter(readStore: ReadStore, projections: Projection[]) {
  return async (position: number, timeoutMs = 2000): Promise<boolean> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const checkpoints = await Promise.all(projections.map((p) => readStore.getCheckpoint(p.name)));
      if (checkpoints.every((c, i) => (c !== null && c.version !== projections[i]!.version) || (c?.position ?? 0) >= position)) return true;
      if (Date.now() > deadline) return false;
      await new Promise((r) => setTimeout(r, 50));
    }
  };
}

/**
 * A service that reads the read models but does not project them itself needs a projector somewhere. With the
 * in-memory read store there is none to share, so such a process follows the log on its own. MongoDB and the SQLite
 * file (in the shared DATA_DIR) are written by the query service with PROJECTOR=on and only read here.
 */
export async function followLogIfReadModelsAreLocal(
  adapters: { kinds: { readStore: 'sqlite' | 'memory' | 'mongodb' }; eventStore: EventStore; readStore: ReadStore },
  projections: Projection[],
): Promise<{ stop(): Promise<void> } | null> {
  if (adapters.kinds.readStore !== 'memory') return null;
  const runner = new ProjectionRunner({ eventStore: adapters.eventStore, readStore: adapters.readStore, projections });
  await runner.catchUp();
  await runner.start();
  return runner;
}
