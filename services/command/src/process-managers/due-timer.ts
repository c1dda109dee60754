import type { Logger } from '@telemed/platform';

/** A process manager woken at the soonest due time its read model knows, and at least every `intervalMs`. */
export interface DueTimer {
  runNow(): Promise<void>;
  stop(): void;
}

/**
 * Runs `work` at the next due time (`nextDue`, from an index of what is pending) and at least every `intervalMs` (work
 * that became pending since is picked up then), one run at a time; `minDelayMs` keeps a due item that could not be
 * handled from being retried in a tight loop.
 */
export function startDueTimer(options: {
  name: string;
  nextDue: () => Promise<string | null>;
  work: () => Promise<number>;
  /** What a run that did something logs, with how many it handled. */
  done: string;
  clock: () => Date;
  logger: Logger;
  intervalMs: number;
  minDelayMs?: number;
}): DueTimer {
  let running: Promise<void> | null = null;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;

  const schedule = async () => {
    let delay = options.intervalMs;
    try {
      const next = await options.nextDue();
      if (next) delay = Math.min(delay, Math.max(options.minDelayMs ?? 0, new Date(next).getTime() - options.clock().getTime() + 10));
    } catch (error) {
      options.logger.error({ err: error }, `${options.name} lookup failed`);
    }
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => void runNow(), delay);
    timer.unref();
  };

  const runNow = (): Promise<void> => {
    running ??= (async () => {
      try {
        const handled = await options.work();
        if (handled) options.logger.info({ handled }, options.done);
      } catch (error) {
        options.logger.error({ err: error }, `${options.name} failed`);
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
