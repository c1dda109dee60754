/**
 * Read-your-writes past the server's wait. A read sent with X-Min-Position waits up to MIN_POSITION_WAIT_MS for the
 * read models to reach the user's last write; when they have not (a heavy load, a rebuild), the server answers what
 * it has with `X-Read-Model-Stale: true`. The console then shows that answer marked as still updating, asks the read
 * side again with a backoff (each ask itself waits on the server up to that same time), and once it has caught up
 * every query on screen is fetched again, so the list or record ends up current without a reload. After
 * CATCH_UP_GIVE_UP_MS it stops asking and says the data may be out of date, with a way to ask again.
 */

export const CATCH_UP_FIRST_DELAY_MS = 500;
export const CATCH_UP_MAX_DELAY_MS = 5000;
export const CATCH_UP_GIVE_UP_MS = 120_000;

/** What the console's bar says (StillUpdating): the admin catalogue's English, which a test keeps equal to these. */
export const CATCH_UP_TEXTS = {
  updating: 'Still updating: showing what the server has so far',
  behind: 'Some of this may be out of date',
  retry: 'Check again',
} as const;

export type CatchUpStatus = 'current' | 'updating' | 'behind';

export interface CatchUpSnapshot {
  status: CatchUpStatus;
  /** Counts the times the read side reached what was awaited: each is a cue to fetch what is on screen again. */
  caughtUp: number;
}

export interface CatchUpOptions {
  /** Whether the read side has reached `position` (the server may wait a little before it answers). */
  probe(position: number): Promise<boolean>;
  now?: () => number;
  firstDelayMs?: number;
  maxDelayMs?: number;
  giveUpAfterMs?: number;
}

export interface CatchUp {
  /** A read came back stale for `position`: show it as still updating and keep asking. */
  behind(position: number): void;
  /** A read came back current for `position`. */
  reached(position: number): void;
  /** Ask again after giving up. */
  retry(): void;
  get(): CatchUpSnapshot;
  subscribe(listener: () => void): () => void;
  /** Stops asking (the console is gone). */
  stop(): void;
}

export function createCatchUp(options: CatchUpOptions): CatchUp {
  const now = options.now ?? (() => Date.now());
  const first = options.firstDelayMs ?? CATCH_UP_FIRST_DELAY_MS;
  const max = options.maxDelayMs ?? CATCH_UP_MAX_DELAY_MS;
  const giveUpAfter = options.giveUpAfterMs ?? CATCH_UP_GIVE_UP_MS;
  const listeners = new Set<() => void>();
  let snapshot: CatchUpSnapshot = { status: 'current', caughtUp: 0 };
  let wanted = 0;
  let startedAt = 0;
  let delay = first;
  let timer: ReturnType<typeof setTimeout> | null = null;
  /** Bumped whenever asking starts or stops, so an answer to an ask that no longer matters is dropped. */
  let round = 0;

  const set = (next: CatchUpSnapshot) => {
    snapshot = next;
    listeners.forEach((listener) => listener());
  };
  const cancel = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    round += 1;
  };
  const schedule = () => {
    const mine = round;
    timer = setTimeout(() => {
      timer = null;
      void options.probe(wanted).then(
        (ok) => mine === round && (ok ? caughtUp() : again()),
        () => mine === round && again(),
      );
    }, delay);
  };
  const again = () => {
    if (now() - startedAt >= giveUpAfter) {
      cancel();
      set({ ...snapshot, status: 'behind' });
      return;
    }
    delay = Math.min(delay * 2, max);
    schedule();
  };
  const caughtUp = () => {
    cancel();
    set({ status: 'current', caughtUp: snapshot.caughtUp + 1 });
  };
  const start = () => {
    cancel();
    startedAt = now();
    delay = first;
    set({ ...snapshot, status: 'updating' });
    schedule();
  };

  return {
    behind(position) {
      wanted = Math.max(wanted, position);
      if (snapshot.status !== 'updating') start();
    },
    reached(position) {
      if (snapshot.status !== 'current' && position >= wanted) caughtUp();
    },
    retry() {
      if (snapshot.status === 'behind') start();
    },
    get: () => snapshot,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    stop: cancel,
  };
}
