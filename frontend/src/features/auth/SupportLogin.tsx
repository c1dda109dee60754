import { useState, type FormEvent } from 'react';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router';
import { Alert, Box, Button, Card, CardContent, Link, Stack, TextField, Typography } from '@mui/material';
import { ApiError } from '../../lib/api';
import { call } from '../../lib/client';
import { homePathFor, sessionStore } from '../../lib/session';
import { isSafeReturnPath } from '../../lib/postLogin';
import { useLanguage } from '../../i18n/I18nProvider';
import { settleAccountLanguage } from '../../i18n/accountLanguage';
import { useErrorText } from '../../i18n/errorText';
import { useT } from '../../i18n/useT';

/** Email and password sign-in for admins and support staff. */
export function SupportLogin() {
  const t = useT();
  const explain = useErrorText();
  const navigate = useNavigate();
  const { setLanguage } = useLanguage();
  const from = (useLocation().state as { from?: unknown } | null)?.from;
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const result = await call('loginWithPassword', { body: { email, password } });
      sessionStore.set({ token: result.access_token, refreshToken: result.refresh_token, user: result.user, authProvider: 'password' });
      void settleAccountLanguage(setLanguage);
      navigate(isSafeReturnPath(from) ? from : homePathFor(result.user), { replace: true });
    } catch (e) {
      // A refusal (wrong password, a closed account) says why; offline or a server failure asks to try again.
      setError(explain(e, e instanceof ApiError && e.status < 500 ? 'account.loginFailedCredentials' : 'account.networkError'));
      setBusy(false);
    }
  }

  return (
    <Box component="main" sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', p: 2, bgcolor: 'background.default' }}>
      <Card sx={{ width: '100%', maxWidth: 420 }}>
        <CardContent>
          <Stack component="form" spacing={2} onSubmit={submit}>
            <Typography variant="h5" component="h1">
              {t('account.supportSignIn')}
            </Typography>
            {error && <Alert severity="error">{error}</Alert>}
            <TextField label={t('account.email')} type="email" required value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="username" />
            <TextField label={t('account.password')} type="password" required value={password} onChange={(e) => setPassword(e.target.value)} autoComplete="current-password" />
            <Button type="submit" variant="contained" disabled={busy}>
              {busy ? t('account.signingIn') : t('account.signIn')}
            </Button>
            <Link component={RouterLink} to="/login">
              {t('account.backToLogin')}
            </Link>
          </Stack>
        </CardContent>
      </Card>
    </Box>
  );
}
