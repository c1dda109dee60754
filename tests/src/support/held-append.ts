import type { EventStore } from '@telemed/platform';

/**
 * Runs `between` once, just before the first append that `when` picks (its writer has read and decided), then lets
 * that append go on: the interleaving of two writers made certain instead of left to chance. `done` settles when
 * `between` has; `release` puts the store back.
 */
export function holdAppend(
  store: EventStore,
  when: (stream: string, types: string[]) => boolean,
  between: () => Promise<void>,
): { done: Promise<void>; release: () => void } {
  const original = store.appendToStream;
  let fired = false;
  let resolveDone!: () => void;
  let rejectDone!: (error: unknown) => void;
  const done = new Promise<void>((resolve, reject) => {
    resolveDone = resolve;
    rejectDone = reject;
  });
  store.appendToStream = async function (this: EventStore, stream, events, options) {
    if (!fired && when(stream, events.map((e) => e.type))) {
      fired = true;
      await between().then(resolveDone, rejectDone);
    }
    return original.call(this, stream, events, options);
  };
  return { done, release: () => void (store.appendToStream = original) };
}
