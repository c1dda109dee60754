import { useEffect, useRef } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Box, CircularProgress, Typography } from '@mui/material';
import { call } from '../../lib/client';
import { useToasts } from '../../lib/toasts';
import { useT } from '../../i18n/useT';
import { useFinishSignIn } from './finishSignIn';

/** Where the identity provider sends the browser back: exchanges the code and signs in. */
export function AuthCallback() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const toasts = useToasts();
  const t = useT();
  const finishSignIn = useFinishSignIn();
  // The effect runs once: the messages and the sign-in as they were when it started are the ones it uses.
  const started = useRef(false);
  const once = useRef({ failed: t('auth.loginFailed'), finishSignIn });

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const code = params.get('code');
    const state = params.get('state') ?? undefined;
    const fail = () => {
      toasts.show({ type: 'error', title: once.current.failed, duration: 3000 });
      navigate('/login', { replace: true });
    };
    if (!code) return fail();
    call('finishGoogleLogin', { body: { token: code, state } }).then((result) => (result.status === 'success' ? once.current.finishSignIn(result, 'google') : fail()), fail);
  }, [params, navigate, toasts]);

  return (
    <Box component="main" sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center' }}>
      <Box sx={{ textAlign: 'center' }}>
        <CircularProgress />
        <Typography sx={{ mt: 2 }}>{t('auth.signingIn')}</Typography>
      </Box>
    </Box>
  );
}
