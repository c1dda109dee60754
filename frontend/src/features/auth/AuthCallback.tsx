import { useEffect, useRef } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Box, CircularProgress, Typography } from '@mui/material';
import { api } from '../../lib/api';
import { isDoctor, sessionStore, type SessionUser } from '../../lib/session';
import { useToasts } from '../../lib/toasts';
import { LOGIN_FAILED } from './LoginPage';

export const WELCOME_TOAST_MS = 3000;
export const REDIRECT_DELAY_MS = 1000;

interface LoginResponse {
  status: 'success';
  access_token: string;
  refresh_token: string;
  user: SessionUser;
}

/** Where the identity provider sends the browser back: exchanges the code and signs in. */
export function AuthCallback() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const toasts = useToasts();
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const code = params.get('code');
    const state = params.get('state') ?? undefined;
    if (!code) {
      toasts.show({ type: 'error', title: LOGIN_FAILED, duration: 3000 });
      navigate('/login', { replace: true });
      return;
    }
    api<LoginResponse>('/auth/google', { method: 'POST', body: { token: code, state } }).then(
      (result) => {
        if (result.status !== 'success') throw new Error('login failed');
        sessionStore.set({ token: result.access_token, refreshToken: result.refresh_token, user: result.user, authProvider: 'google' });
        toasts.show({ type: 'success', title: `Welcome, ${result.user.name}!`, duration: WELCOME_TOAST_MS });
        setTimeout(() => navigate(isDoctor(result.user) ? '/doctor-home' : '/home', { replace: true }), REDIRECT_DELAY_MS);
      },
      () => {
        toasts.show({ type: 'error', title: LOGIN_FAILED, duration: 3000 });
        navigate('/login', { replace: true });
      },
    );
  }, [params, navigate, toasts]);

  return (
    <Box sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center' }}>
      <Box sx={{ textAlign: 'center' }}>
        <CircularProgress />
        <Typography sx={{ mt: 2 }}>Signing you in…</Typography>
      </Box>
    </Box>
  );
}
