import { useEffect, useRef, type RefObject } from 'react';
import { useNavigate } from 'react-router';
import { useConfirm, type ConfirmOptions } from '../../lib/confirm';
import { useOwnLeaveQuestion } from '../../lib/unsavedChanges';
import { useT, type Translate } from '../../i18n/useT';

/**
 * The question before leaving a call, in the chosen language; `unsaved`: the same question while something on the page
 * is not saved yet (the unsaved-changes question is not asked as well).
 */
export function leaveCallQuestion(t: Translate, unsaved: boolean): ConfirmOptions {
  return {
    title: t('video.leaveTitle'),
    message: t(unsaved ? 'video.leaveMessageUnsaved' : 'video.leaveMessage'),
    confirmLabel: t('video.leaveCall'),
    cancelLabel: t('video.stayInCall'),
    destructive: true,
  };
}

/**
 * While a call is on, a tap on the app's own navigation (the header's links, the phone's bottom bar, Logout) would
 * leave the consultation without a word: the page unmounts, hangs up and leaves, and the other side sees them gone.
 * This asks first. It catches clicks on links and buttons inside the app's `header` or `nav` but outside the call
 * page itself (`pageRef`), and on 'Leave call' repeats the same click with itself stepped aside, so the control goes
 * wherever it goes (a link, or a button that navigates or logs out).
 *
 * The browser's Back button asks too (see useBackDuringCall).
 *
 * This question is the only one: the app's unsaved-changes question is held back during the call
 * (useOwnLeaveQuestion), and this one says so when something on the page is not saved yet.
 *
 * A reload or a closed tab is not asked about: a reload is how a stuck call is joined again, and the server's grace
 * covers a tab closed by mistake.
 */
export function useLeaveCallGuard(active: boolean, pageRef: RefObject<HTMLElement | null>): void {
  const confirm = useConfirm();
  const t = useT();
  // The question in the language chosen when it is asked (the listener is not added again for a new `t`).
  const tRef = useRef(t);
  tRef.current = t;
  const bypass = useRef(false);
  const { unsaved } = useOwnLeaveQuestion(active);
  const back = useBackDuringCall(active, unsaved);

  useEffect(() => {
    if (!active) return;
    const onClick = (event: MouseEvent) => {
      if (bypass.current || !(event.target instanceof Element)) return;
      const control = event.target.closest<HTMLElement>('a[href], button');
      if (!control || !control.closest('header, nav') || pageRef.current?.contains(control)) return;
      event.preventDefault();
      event.stopPropagation();
      void confirm(leaveCallQuestion(tRef.current, unsaved())).then(async (leave) => {
        if (!leave || !control.isConnected) return;
        // Off the call's extra history entry first, so that the page this leads to replaces it: Back from there
        // then goes to the call page once, not twice.
        await back.current.dropEntry();
        if (!control.isConnected) return;
        bypass.current = true;
        try {
          control.click();
        } finally {
          bypass.current = false;
        }
      });
    };
    document.addEventListener('click', onClick, true);
    return () => document.removeEventListener('click', onClick, true);
  }, [active, pageRef, confirm, back, unsaved]);
}

/** Marks the history entry pushed for a call, with the id of the call page that pushed it. */
const CALL_ENTRY = 'telemedCallEntry';
/** How many entries of the call page itself (a reload meanwhile leaves one behind) Leave call steps over going back. */
const MAX_STEPS_BACK = 5;

const entryId = (): unknown => (window.history.state as Record<string, unknown> | null)?.[CALL_ENTRY];

/**
 * The browser's Back button during a call asks first, as the app's own navigation does. Back is a history traversal
 * the page cannot cancel, so while the call is on the page keeps one extra entry of its own address on top of the
 * history (pushed when the call starts): Back only steps off that entry, the page stays, and it asks. 'Stay in call'
 * puts the entry back (so the next Back asks again); 'Leave call' goes on back to where the person came from. When the
 * call ends (End Call, the limit) the entry is taken off again, so the history is as it was.
 *
 * Why not react-router's useBlocker: it can only block Back within the app (a call page opened first in its tab, from a
 * notification, would be left at once), and the app's one blocker is the unsaved-changes one (held back during a call,
 * see useOwnLeaveQuestion). The extra entry works for any history, and is confined to this page.
 *
 * Returns `dropEntry`, for a leave through the app's own navigation: it steps off the extra entry first, so the page
 * navigated to replaces it.
 */
export function useBackDuringCall(active: boolean, unsaved: () => boolean = () => false): RefObject<{ dropEntry(): Promise<void> }> {
  const confirm = useConfirm();
  const t = useT();
  const question = useRef<() => ConfirmOptions>(() => leaveCallQuestion(t, false));
  question.current = () => leaveCallQuestion(t, unsaved());
  const navigate = useNavigate();
  // The router's navigate changes with the page's address; the entry must not be pushed again for that.
  const navigateRef = useRef(navigate);
  navigateRef.current = navigate;
  const api = useRef({ dropEntry: () => Promise.resolve() });

  useEffect(() => {
    if (!active) return;
    const id = `${Date.now()}-${Math.random()}`;
    const callAddress = window.location.pathname + window.location.search;
    const onCallPage = () => window.location.pathname + window.location.search === callAddress;
    let disposed = false;
    let asking = false;
    let leaving = 0; // steps taken back after 'Leave call'
    let dropping: (() => void) | null = null;

    const pushEntry = () => window.history.pushState({ ...((window.history.state as object | null) ?? {}), [CALL_ENTRY]: id }, '');
    const stepBack = (): Promise<void> =>
      new Promise((resolve) => {
        dropping = resolve;
        window.history.back();
        setTimeout(() => dropping === resolve && onPopState(), 1000); // never left waiting by a traversal not seen
      });
    pushEntry();

    const onPopState = () => {
      if (disposed) return;
      if (dropping) {
        const done = dropping;
        dropping = null;
        done();
        return;
      }
      if (!onCallPage()) return; // the router has gone elsewhere (Forward, or a jump several entries back)
      if (leaving > 0) {
        // Still this page: an older entry of it (left by a reload). Further back, or to the appointments.
        if (leaving++ < MAX_STEPS_BACK) window.history.back();
        else navigateRef.current('/my-appointments', { replace: true });
        return;
      }
      if (entryId() === id || asking) return;
      asking = true;
      void confirm(question.current()).then((leave) => {
        asking = false;
        if (disposed) return;
        if (!leave) return pushEntry();
        leaving = 1;
        window.history.back();
      });
    };
    window.addEventListener('popstate', onPopState);
    api.current = { dropEntry: () => (entryId() === id ? stepBack() : Promise.resolve()) };

    return () => {
      disposed = true;
      window.removeEventListener('popstate', onPopState);
      api.current = { dropEntry: () => Promise.resolve() };
      // The call ended on this page (the summary follows): its extra entry goes, quietly.
      if (entryId() === id) window.history.back();
    };
  }, [active, confirm]);

  return api;
}
