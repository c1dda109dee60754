import { streams } from '@telemed/contracts';
import type { EventStore } from '@telemed/platform';
import { toRecorded } from '../decider';
import { appointmentDecider, type AppointmentEvent, type AppointmentState } from '../appointments/appointment';

/**
 * The appointment's stream folded for a closer's decision, and whether its request was recorded before the closing
 * event (`closedAt`, its log position). A closer closes only those: a request recorded after it — booked after a
 * reactivation that its check of the account did not see yet, or slipped in between a booking's checks and its write —
 * is the late-request closer's (late-requests.ts), which decides on the accounts as they are when it is recorded.
 */
export async function appointmentBefore(
  eventStore: EventStore,
  appointmentId: string,
  closedAt: number | undefined,
): Promise<{ loaded: { state: AppointmentState; revision: number | null }; requestedBefore: boolean }> {
  const stored = await eventStore.readStream(streams.appointment(appointmentId));
  let state = appointmentDecider.initialState();
  for (const event of stored) state = appointmentDecider.evolve(state, toRecorded(event) as unknown as AppointmentEvent);
  const requested = stored.find((event) => event.type === 'AppointmentRequested');
  return {
    loaded: { state, revision: stored.length ? stored[stored.length - 1]!.revision : null },
    requestedBefore: requested !== undefined && (closedAt === undefined || requested.position < closedAt),
  };
}
