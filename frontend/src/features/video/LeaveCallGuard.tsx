import { useEffect, useRef, type RefObject } from 'react';
import { useConfirm } from '../../lib/confirm';

export const LEAVE_CALL_QUESTION = {
  title: 'Leave the consultation?',
  message: 'Going to another page leaves the call. You can join again from your appointments while the consultation is open. To finish it, use End Call.',
  confirmLabel: 'Leave call',
  cancelLabel: 'Stay in call',
  destructive: true,
};

/**
 * While a call is on, a tap on the app's own navigation (the header's links, the phone's bottom bar, Logout) would
 * leave the consultation without a word: the page unmounts, hangs up and leaves, and the other side sees them gone.
 * This asks first. It catches clicks on links and buttons inside the app's `header` or `nav` but outside the call
 * page itself (`pageRef`), and on 'Leave call' repeats the same click with itself stepped aside, so the control goes
 * wherever it goes (a link, or a button that navigates or logs out).
 *
 * A reload or a closed tab is not asked about: a reload is how a stuck call is joined again, and the server's grace
 * covers a tab closed by mistake.
 */
export function useLeaveCallGuard(active: boolean, pageRef: RefObject<HTMLElement | null>): void {
  const confirm = useConfirm();
  const bypass = useRef(false);

  useEffect(() => {
    if (!active) return;
    const onClick = (event: MouseEvent) => {
      if (bypass.current || !(event.target instanceof Element)) return;
      const control = event.target.closest<HTMLElement>('a[href], button');
      if (!control || !control.closest('header, nav') || pageRef.current?.contains(control)) return;
      event.preventDefault();
      event.stopPropagation();
      void confirm(LEAVE_CALL_QUESTION).then((leave) => {
        if (!leave || !control.isConnected) return;
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
  }, [active, pageRef, confirm]);
}
