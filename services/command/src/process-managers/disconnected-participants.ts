import { participantDisconnectedSchema, streams } from '@telemed/contracts';
import { PARTICIPANT_DISCONNECTED_SUBJECT, type Bus, type EventStore, type Logger, type Subscription } from '@telemed/platform';
import { handleCommand, systemContext } from '../decider';
import { consultationDecider } from '../consultations/consultation';
import { consultationFoldsOf } from '../consultations/service';

/**
 * Records a peer-to-peer participant whose call socket dropped and did not come back within the grace, as the
 * notifier reports it on a transient subject: `ConsultationLeft` (reason `disconnected`, by the system), decided by
 * the consultation's rules (only their current connection, only while the call is open). Several command replicas
 * may each hear the same report: the rules make the second a no-op.
 */
export async function startDisconnectRecorder(deps: { bus: Bus; eventStore: EventStore; logger: Logger; clock: () => Date }): Promise<Subscription> {
  const pending = new Set<Promise<unknown>>();
  const subscription = await deps.bus.subscribeTransient(PARTICIPANT_DISCONNECTED_SUBJECT, (_subject, payload) => {
    const parsed = participantDisconnectedSchema.safeParse(payload);
    if (!parsed.success) return deps.logger.warn('ignored a malformed participant-disconnected notice');
    const { appointment_id, user_id, connection_id } = parsed.data;
    const now = deps.clock();
    const stream = streams.consultation(appointment_id);
    // The kept fold on every attempt: a retry after a concurrent write reads that write, not the whole chat.
    const work = handleCommand(deps.eventStore, stream, consultationDecider, { type: 'RecordParticipantDisconnected', data: { user_id, connection_id, now } }, systemContext(now, null), () =>
      consultationFoldsOf(deps.eventStore).current(stream),
    )
      .then((result) => {
        if (result.events.length > 0) deps.logger.info({ appointment_id, user_id }, 'participant recorded as disconnected');
      })
      .catch((error: unknown) => deps.logger.error({ err: error, appointment_id }, 'could not record a disconnected participant'))
      .finally(() => pending.delete(work));
    pending.add(work);
  });
  return {
    async stop() {
      await subscription.unsubscribe();
      await Promise.allSettled([...pending]);
    },
  };
}
