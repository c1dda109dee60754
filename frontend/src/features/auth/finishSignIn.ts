import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import type { ApiRoutes } from '@telemed/contracts';
import { call } from '../../lib/client';
import { isAdmin, isDoctor, sessionStore, type Session, type SessionUser } from '../../lib/session';
import { postLogin } from '../../lib/postLogin';
import { useToasts } from '../../lib/toasts';
import { useT } from '../../i18n/useT';
import { useLanguage } from '../../i18n/I18nProvider';
import { settleAccountLanguage } from '../../i18n/accountLanguage';

export const WELCOME_TOAST_MS = 3000;
export const REDIRECT_DELAY_MS = 1000;

/** What a patient's or doctor's sign-in answers (Google's and the phone's alike). */
export type SignedIn = ApiRoutes['finishGoogleLogin']['response'];

/**
 * Where to go after signing in: where the person was headed, else doctors to /doctor-home and everyone else to
 * /home. A slot picked on a doctor's public page also adds that doctor to a patient's list (failures are ignored:
 * the confirm page works either way); doctors and admins, who do not book, go home instead.
 */
export async function destinationAfterSignIn(user: SessionUser): Promise<string> {
  const home = isDoctor(user) ? '/doctor-home' : '/home';
  const intent = postLogin.take();
  if (!intent) return home;
  if (!intent.subscribeTo) return intent.path;
  if (isDoctor(user) || isAdmin(user)) return home;
  await call('subscribeToDoctor', { body: { doctor_id: intent.subscribeTo } }).catch(() => undefined);
  return intent.path;
}

/**
 * The one way a patient or doctor is signed in, whichever proved who they are: the session stored, the account's
 * language settled, a welcome, and then where they were headed (the intent saved before they started) or home.
 */
export function useFinishSignIn(): (result: SignedIn, provider: Session['authProvider']) => Promise<void> {
  const navigate = useNavigate();
  const toasts = useToasts();
  const t = useT();
  const { setLanguage } = useLanguage();
  return useCallback(
    async (result, provider) => {
      sessionStore.set({ token: result.access_token, refreshToken: result.refresh_token, user: result.user, authProvider: provider });
      void settleAccountLanguage(setLanguage);
      toasts.show({ type: 'success', title: t('auth.welcome', { name: result.user.name }), duration: WELCOME_TOAST_MS });
      const started = Date.now();
      const destination = await destinationAfterSignIn(result.user);
      setTimeout(() => navigate(destination, { replace: true }), Math.max(0, REDIRECT_DELAY_MS - (Date.now() - started)));
    },
    [navigate, toasts, setLanguage, t],
  );
}
