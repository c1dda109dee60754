import { createContext, useCallback, useContext, useEffect, useId, useLayoutEffect, useMemo, useRef, type ReactNode } from 'react';
import { useBlocker, type BlockerFunction } from 'react-router';
import { useConfirm, type ConfirmOptions } from './confirm';
import { sessionStore } from './session';
import { useT, type MessageId } from '../i18n/useT';
import { englishText } from './englishText';

/** What a person is asked before unsaved input is thrown away (leaving the page, closing a form, switching a view). */
function unsavedChangesQuestion(t: (id: MessageId) => string): ConfirmOptions {
  return { title: t('common.unsavedTitle'), message: t('common.unsavedMessage'), confirmLabel: t('common.discard'), cancelLabel: t('common.keepEditing'), destructive: true };
}

/** The question in English (what the tests read); the screens ask it in the chosen language. */
export const UNSAVED_CHANGES_QUESTION: ConfirmOptions = unsavedChangesQuestion(englishText);

/** The question in the chosen language, the same object until the language changes. */
function useUnsavedChangesQuestion(): ConfirmOptions {
  const t = useT();
  // t is new each render; its words change only with intl.
  return useMemo(() => unsavedChangesQuestion(t), [t.intl]);
}

interface Registry {
  /** Marks (or clears) one screen's unsaved input. */
  set(id: string, dirty: boolean): void;
  /** Marks (or clears) a page that asks its own question before any move away from it (see useOwnLeaveQuestion). */
  hold(id: string, on: boolean): void;
  /** Whether any screen holds unsaved input now. */
  unsaved(): boolean;
  /** Asks once if anything is unsaved; on yes the next navigation goes through without asking again. */
  askToLeave(): Promise<boolean>;
}

const RegistryContext = createContext<Registry | null>(null);

/**
 * The app's one navigation blocker (react-router allows one per router): a move to another page while any screen holds
 * unsaved input asks first. Screens register through useUnsavedChanges. Needs a data router (createBrowserRouter).
 * Nothing is asked once the session has ended (nothing could be saved any more; the sign-in page must show).
 */
export function UnsavedChangesProvider({ children }: { children: ReactNode }) {
  const confirm = useConfirm();
  const question = useUnsavedChangesQuestion();
  const dirty = useRef(new Set<string>());
  const holds = useRef(new Set<string>());
  const letThrough = useRef(false);
  const shouldBlock = useCallback<BlockerFunction>(({ currentLocation, nextLocation }) => {
    if (letThrough.current) {
      letThrough.current = false;
      return false;
    }
    return dirty.current.size > 0 && holds.current.size === 0 && currentLocation.pathname !== nextLocation.pathname && sessionStore.get() !== null;
  }, []);
  const blocker = useBlocker(shouldBlock);
  const current = useRef(blocker);
  current.current = blocker;
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    let live = true;
    void confirm(question).then((discard) => {
      if (!live || current.current.state !== 'blocked') return;
      if (discard) current.current.proceed();
      else current.current.reset();
    });
    return () => {
      live = false;
    };
  }, [blocker.state, confirm, question]);
  const registry = useMemo<Registry>(
    () => ({
      set: (id, value) => {
        if (value) dirty.current.add(id);
        else dirty.current.delete(id);
      },
      hold: (id, on) => {
        if (on) holds.current.add(id);
        else holds.current.delete(id);
      },
      unsaved: () => dirty.current.size > 0,
      askToLeave: async () => {
        if (dirty.current.size === 0 || holds.current.size > 0) return true;
        const discard = await confirm(question);
        if (discard) letThrough.current = true;
        return discard;
      },
    }),
    [confirm, question],
  );
  return <RegistryContext.Provider value={registry}>{children}</RegistryContext.Provider>;
}

/**
 * For a control that leaves the page by other means than a plain navigation (Logout clears the session first): asks
 * if any screen holds unsaved input, and lets the navigation that follows through. True when it may go on.
 */
export function useAskToLeave(): () => Promise<boolean> {
  const registry = useContext(RegistryContext);
  return useCallback(() => (registry ? registry.askToLeave() : Promise.resolve(true)), [registry]);
}

/**
 * For a page that itself asks before anything leaves it while `active` (a video call's 'Leave the consultation?', for
 * the app's navigation, Back and Logout): the unsaved-changes question is not asked as well, so a person is asked once.
 * That page's question must say that unsaved input is lost when `unsaved()` is true (read at the moment of asking).
 */
export function useOwnLeaveQuestion(active: boolean): { unsaved: () => boolean } {
  const registry = useContext(RegistryContext);
  const id = useId();
  useLayoutEffect(() => {
    registry?.hold(id, active);
    return () => registry?.hold(id, false);
  }, [registry, id, active]);
  return useMemo(() => ({ unsaved: () => registry?.unsaved() ?? false }), [registry]);
}

/**
 * A screen holding unsaved input (`dirty`): closing the tab or reloading asks (the browser's own question), moving to
 * another page of the app asks (UnsavedChangesProvider), and `confirmDiscard` asks before the screen itself throws the
 * input away (closing its form, switching a view); it answers true at once when nothing is unsaved.
 */
export function useUnsavedChanges(dirty: boolean, ownQuestion?: ConfirmOptions): { confirmDiscard: () => Promise<boolean> } {
  const registry = useContext(RegistryContext);
  const confirm = useConfirm();
  const unsavedQuestion = useUnsavedChangesQuestion();
  const question = ownQuestion ?? unsavedQuestion;
  const id = useId();
  // Before paint, so that a navigation right after a save (which cleared it) is not asked about.
  useLayoutEffect(() => {
    registry?.set(id, dirty);
    return () => registry?.set(id, false);
  }, [registry, id, dirty]);
  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers ask only when a value is returned.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirty]);
  const confirmDiscard = useCallback(() => (dirty ? confirm(question) : Promise.resolve(true)), [dirty, confirm, question]);
  return { confirmDiscard };
}
