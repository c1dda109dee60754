import { streams } from '@telemed/contracts';
import type { EventStore, Logger } from '@telemed/platform';
import { handleCommand, systemContext } from '../decider';
import { consultationDecider } from '../consultations/consultation';
import { forEachPage, SWEEP_PAGE_SIZE } from './pages';

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
      const result = await handleCommand(
        deps.eventStore,
        streams.consultation(open.appointment_id),
        consultationDecider,
        { type: 'AutoEndConsultation', data: { now } },
        systemContext(now, null),
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
export function startConsultationLimit(deps: {
  eventStore: EventStore;
  lookups: ConsultationLookups;
  clock: () => Date;
  logger: Logger;
  intervalMs: number;
}): { runNow(): Promise<void>; stop(): void } {
  let running: Promise<void> | null = null;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;

  const schedule = async () => {
    let delay = deps.intervalMs;
    try {
      const next = await deps.lookups.nextConsultationEnd();
      if (next) delay = Math.min(delay, Math.max(0, new Date(next).getTime() - deps.clock().getTime()) + 10);
    } catch (error) {
      deps.logger.error({ err: error }, 'consultation limit lookup failed');
    }
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => void runNow(), delay);
    timer.unref();
  };

  const runNow = (): Promise<void> => {
    running ??= (async () => {
      try {
        const ended = await endConsultationsAtLimit(deps);
        if (ended) deps.logger.info({ ended }, 'consultations auto-ended at their limit');
      } catch (error) {
        deps.logger.error({ err: error }, 'consultation limit failed');
      } finally {
        running = null;
      }
      await schedule();
    })();
    return running;
  };

  return {
    runNow,
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
