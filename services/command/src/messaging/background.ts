import type { CheckpointStore, Logger } from '@telemed/platform';
import { startDueTimer } from '../process-managers/due-timer';
import { dispatchDueMessages, dispatchMessage, type MessageLookups, type MessagingDeps } from './dispatch';
import { startNotifications } from './notifications';

/**
 * Messages outside the browser: the process manager that queues them as appointments change, and the dispatcher that
 * sends what is due, woken at the next due time (an index of what is pending), when something is queued for now, and at
 * least every `intervalMs`.
 */
export async function startMessaging(
  deps: MessagingDeps & { checkpoints: CheckpointStore; logger: Logger; lookups: MessageLookups; reminderOffsetsMinutes: readonly number[]; intervalMs: number },
) {
  const dispatcher = startDueTimer({
    name: 'message dispatcher',
    nextDue: () => deps.lookups.nextMessageDue(),
    work: () => dispatchDueMessages(deps),
    done: 'messages sent',
    clock: deps.clock,
    logger: deps.logger,
    intervalMs: deps.intervalMs,
    minDelayMs: 250,
  });
  // A message queued for now is sent at once, by its id: the index it will appear in is the read side's, which may lag.
  const inFlight = new Set<Promise<unknown>>();
  const onQueued = (messageId: string) => {
    const sending = dispatchMessage(deps, messageId)
      .catch((error: unknown) => deps.logger.error({ err: error, messageId }, 'message dispatch failed'))
      .finally(() => inFlight.delete(sending));
    inFlight.add(sending);
  };
  const notifications = await startNotifications({ ...deps, onQueued });
  return {
    notifications,
    onQueued,
    runNow: () => dispatcher.runNow(),
    /** Until the sends started for messages queued for now have finished (what a test settles on). */
    async idle() {
      while (inFlight.size > 0) await Promise.all(inFlight);
    },
    async stop() {
      dispatcher.stop();
      await Promise.all(inFlight);
      await notifications.stop();
    },
  };
}
