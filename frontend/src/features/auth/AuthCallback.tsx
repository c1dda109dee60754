import { useEffect, useRef } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Box, CircularProgress, Typography } from '@mui/material';
import { call } from '../../lib/client';
import { isAdmin, isDoctor, sessionStore, type SessionUser } from '../../lib/session';
import { postLogin } from '../../lib/postLogin';
import { useToasts } from '../../lib/toasts';
import { useT } from '../../i18n/useT';
import { useLanguage } from '../../i18n/I18nProvider';
import { settleAccountLanguage } from '../../i18n/accountLanguage';

export const WELCOME_TOAST_MS = 3000;
export const REDIRECT_DELAY_MS = 1000;

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

/** Where the identity provider sends the browser back: exchanges the code and signs in. */
export function AuthCallback() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const toasts = useToasts();
  const t = useT();
  const { setLanguage } = useLanguage();
  // The effect runs once: the messages as they were when it started are the ones it shows.
  const messages = useRef({ failed: t('auth.loginFailed'), welcome: (name: string) => t('auth.welcome', { name }) });
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const code = params.get('code');
    const state = params.get('state') ?? undefined;
    if (!code) {
      toasts.show({ type: 'error', title: messages.current.failed, duration: 3000 });
      navigate('/login', { replace: true });
      return;
    }
    call('finishGoogleLogin', { body: { token: code, state } }).then(
      async (result) => {
        if (result.status !== 'success') throw new Error('login failed');
        sessionStore.set({ token: result.access_token, refreshToken: result.refresh_token, user: result.user, authProvider: 'google' });
        void settleAccountLanguage(setLanguage);
        toasts.show({ type: 'success', title: messages.current.welcome(result.user.name), duration: WELCOME_TOAST_MS });
        const started = Date.now();
        const destination = await destinationAfterSignIn(result.user);
        setTimeout(() => navigate(destination, { replace: true }), Math.max(0, REDIRECT_DELAY_MS - (Date.now() - started)));
      },
      () => {
        toasts.show({ type: 'error', title: messages.current.failed, duration: 3000 });
        navigate('/login', { replace: true });
      },
    );
  }, [params, navigate, toasts, setLanguage]);

  return (
    <Box component="main" sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center' }}>
      <Box sx={{ textAlign: 'center' }}>
        <CircularProgress />
        <Typography sx={{ mt: 2 }}>{t('auth.signingIn')}</Typography>
      </Box>
    </Box>
  );
}
