import { useCallback, useEffect, useRef, useState } from 'react';
import { Typography } from '@mui/material';
import { useT, type MessageId } from '../i18n/useT';
import { englishText } from './englishText';

/** A draft saves itself this long after the last change (debounced). */
export const AUTOSAVE_DELAY_MS = 2000;

/** A self-saving draft's state, as read beside its buttons: the messages, */
const AUTOSAVE_MESSAGES = {
  saving: 'common.autosaveSaving',
  saved: 'common.autosaveSaved',
  failed: 'common.autosaveFailed',
  unsaved: 'common.autosaveUnsaved',
} as const satisfies Record<string, MessageId>;

/** and their English (what the tests read). */
export const AUTOSAVE_TEXTS = {
  saving: englishText(AUTOSAVE_MESSAGES.saving),
  saved: englishText(AUTOSAVE_MESSAGES.saved),
  failed: englishText(AUTOSAVE_MESSAGES.failed),
  unsaved: englishText(AUTOSAVE_MESSAGES.unsaved),
} as const;

export type AutosaveState = 'idle' | 'saving' | 'saved' | 'failed';

export interface AutosaveOptions<T> {
  /** The input as it is now. */
  value: T;
  /** What the input is compared by (equal keys: nothing to save). */
  keyOf(value: T): string;
  /** Whether this input can be saved as a draft at all (the server refuses an empty one). */
  canSave(value: T): boolean;
  /** Saves it as a draft; rejects when it was not saved. */
  save(value: T): Promise<void>;
  /** False while nothing may be saved by itself (not loaded yet, the final save under way). */
  enabled: boolean;
  /** Saves what is left when the screen goes (a page left, a call ended): the request outlives the screen. */
  saveOnUnmount?: boolean;
}

/**
 * Saves one at a time, and says where they stand. `saveOnce(next)` waits for a save under way, then asks `next` what
 * to do: true or false (nothing to save, with that answer), or the save to run (it resolves when saved and rejects
 * when not). It answers true when saved. `settled` waits for a save under way, so that a final save goes after it.
 */
export function useSaveQueue() {
  const [state, setState] = useState<AutosaveState>('idle');
  const inFlight = useRef<Promise<boolean> | null>(null);

  const saveOnce = useCallback(async (next: () => boolean | (() => Promise<void>)): Promise<boolean> => {
    // Checked again after each wait, with nothing awaited between the check and the claim: two waiting callers never
    // both go.
    while (inFlight.current) await inFlight.current;
    const step = next();
    if (typeof step === 'boolean') return step;
    const run = (async () => {
      setState('saving');
      try {
        await step();
        setState('saved');
        return true;
      } catch {
        setState('failed');
        return false;
      }
    })();
    inFlight.current = run;
    try {
      return await run;
    } finally {
      inFlight.current = null;
    }
  }, []);

  const settled = useCallback(async () => {
    while (inFlight.current) await inFlight.current;
  }, []);

  /** Nothing saved or failing any more (what the server holds was loaded again). */
  const idle = useCallback(() => setState('idle'), []);

  return { state, saveOnce, settled, idle };
}

/**
 * A draft that saves itself AUTOSAVE_DELAY_MS after the last change, one save at a time. `dirty`: the input differs
 * from what was last saved (or loaded: `reset`). `saveNow` saves what is left at once (true when nothing is left
 * unsaved); `settled` waits for a save under way, so that a final save goes after it.
 */
export function useAutosave<T>({ value, keyOf, canSave, save, enabled, saveOnUnmount = false }: AutosaveOptions<T>) {
  const key = keyOf(value);
  const [savedKey, setSavedKey] = useState(key);
  const { state, saveOnce, settled, idle } = useSaveQueue();
  const dirty = key !== savedKey;
  const latest = useRef({ value, key, savedKey, keyOf, canSave, save, enabled, dirty });
  latest.current = { value, key, savedKey, keyOf, canSave, save, enabled, dirty };

  const saveNow = useCallback(
    (): Promise<boolean> =>
      saveOnce(() => {
        const { value: snapshot, key: snapshotKey, savedKey: held, canSave: can, save: send } = latest.current;
        if (snapshotKey === held) return true;
        if (!can(snapshot)) return false;
        return async () => {
          await send(snapshot);
          latest.current.savedKey = snapshotKey;
          setSavedKey(snapshotKey);
        };
      }),
    [saveOnce],
  );

  /** What the server holds now (loaded, or saved by a final save): nothing is unsaved. */
  const reset = useCallback((to: T) => {
    const k = latest.current.keyOf(to);
    latest.current.savedKey = k;
    setSavedKey(k);
    idle();
  }, [idle]);

  useEffect(() => {
    if (!enabled || !dirty || !canSave(value)) return;
    const timer = setTimeout(() => void saveNow(), AUTOSAVE_DELAY_MS);
    return () => clearTimeout(timer);
    // The key stands for the value: a new object with the same input does not restart the wait.
  }, [enabled, dirty, key, saveNow]);

  useEffect(
    () => () => {
      const now = latest.current;
      if (saveOnUnmount && now.enabled && now.dirty) void saveNow();
    },
    // Only when the screen goes.
    [saveNow],
  );

  return { dirty, state, saveNow, settled, reset };
}

/**
 * Where a self-saving draft stands: Saving… while changed or saving, Saved, or why it is not saved. Input that does not
 * save itself (`autosaves` false) says only whether it has unsaved changes.
 */
export function AutosaveStatus({ state, dirty, canSave, autosaves = true }: { state: AutosaveState; dirty: boolean; canSave: boolean; autosaves?: boolean }) {
  const t = useT();
  const m = AUTOSAVE_MESSAGES;
  const message = !autosaves ? (dirty ? m.unsaved : null) : state === 'failed' ? m.failed : dirty && !canSave ? m.unsaved : dirty || state === 'saving' ? m.saving : state === 'saved' ? m.saved : null;
  return (
    <Typography variant="body2" role="status" data-testid="autosave-status" color={state === 'failed' ? 'error' : 'text.secondary'} sx={{ minHeight: '1.5em' }}>
      {message && t(message)}
    </Typography>
  );
}
