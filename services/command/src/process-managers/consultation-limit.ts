import { streams } from '@telemed/contracts';
import type { EventStore, Logger } from '@telemed/platform';
import { handleCommand, systemContext } from '../decider';
import { consultationDecider } from '../consultations/consultation';
import { consultationFoldsOf } from '../consultations/service';
import { forEachPage, SWEEP_PAGE_SIZE } from './pages';
import { startDueTimer, type DueTimer } from './due-timer';

export interface OpenConsultation {
  appointment_id: string;
  ends_at: string;
}

/**
 * What the limit looks up: only consultations still open (an indexed read model that loses each one as it ends),
 * by their limit, a page at a time after a cursor, so its cost follows the calls in progress, never the history.
 */
export interface ConsultationLookups {
  openConsultationsEndingBefore(now: Date, page: { after: OpenConsultation | null; limit: number }): Promise<OpenConsultation[]>;
  /** The soonest limit among open consultations, or null when none is open. */
  nextConsultationEnd(): Promise<string | null>;
}

/** Ends every open consultation whose limit has come (`ConsultationAutoEnded`); the stream re-decides each one. */
export async function endConsultationsAtLimit(deps: { eventStore: EventStore; lookups: ConsultationLookups; clock: () => Date; pageSize?: number }) {
  const now = deps.clock();
  let ended = 0;
  await forEachPage<OpenConsultation>(
    (after, limit) => deps.lookups.openConsultationsEndingBefore(now, { after, limit }),
    deps.pageSize ?? SWEEP_PAGE_SIZE,
    async (open) => {
      const stream = streams.consultation(open.appointment_id);
      const result = await handleCommand(
        deps.eventStore,
        stream,
        consultationDecider,
        { type: 'AutoEndConsultation', data: { now } },
        systemContext(now, null),
        // Loaded on every attempt: a retry after a last chat message reads that message, not the whole chat.
        () => consultationFoldsOf(deps.eventStore).current(stream),
      );
      ended += result.events.length;
    },
  );
  return ended;
}

/**
 * The consultation limit's process manager: runs at the soonest open consultation's limit (timed from the read
 * model), and at least every `intervalMs` (a consultation started since is picked up then).
 */
export function startConsultationLimit(deps: { eventStore: EventStore; lookups: ConsultationLookups; clock: () => Date; logger: Logger; intervalMs: number }): DueTimer {
  return startDueTimer({
    name: 'consultation limit',
    nextDue: () => deps.lookups.nextConsultationEnd(),
    work: () => endConsultationsAtLimit(deps),
    done: 'consultations auto-ended at their limit',
    clock: deps.clock,
    logger: deps.logger,
    intervalMs: deps.intervalMs,
  });
}
