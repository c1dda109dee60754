import { Suspense, lazy, useEffect, useState } from 'react';
import { Link as RouterLink, useLocation } from 'react-router';
import { Box, Button, Card, CardContent, Link, Stack, Typography } from '@mui/material';
import Google from '@mui/icons-material/Google';
import PhoneIphoneOutlined from '@mui/icons-material/PhoneIphoneOutlined';
import MedicalServicesOutlined from '@mui/icons-material/MedicalServicesOutlined';
import { call } from '../../lib/client';
import { postLogin, type PostLoginIntent } from '../../lib/postLogin';
import { useToasts } from '../../lib/toasts';
import { PRODUCT_NAME } from '@telemed/contracts/constants';
import { useT } from '../../i18n/useT';
import { LanguagePicker } from '../../i18n/LanguagePicker';

// The phone sign-in dialog (MUI's modal, focus trap, text fields, transitions) is not part of the first paint: it is
// fetched once the page has loaded, well before anyone can tap "Continue with Phone".
const loadPhoneSignIn = () => import('./PhoneNotice');
const PhoneSignInDialog = lazy(async () => ({ default: (await loadPhoneSignIn()).PhoneSignInDialog }));
function prefetchAfterLoad(load: () => Promise<unknown>): () => void {
  const start = () => void load().catch(() => {}); // offline: tried again when the dialog is opened
  if (document.readyState === 'complete') {
    const timer = setTimeout(start, 0);
    return () => clearTimeout(timer);
  }
  window.addEventListener('load', start, { once: true });
  return () => window.removeEventListener('load', start);
}

/**
 * "Continue with Google" (the authorization-code flow) and "Continue with Phone" (a code sent to a mobile number).
 * `intent` is where to go after signing in (kept across the provider's redirect); without one, people land on their home.
 */
export function SignInButtons({ intent }: { intent?: PostLoginIntent }) {
  const t = useT();
  const toasts = useToasts();
  const [busy, setBusy] = useState(false);
  const [phoneOpen, setPhoneOpen] = useState(false);
  const [phoneUsed, setPhoneUsed] = useState(false);
  useEffect(() => prefetchAfterLoad(loadPhoneSignIn), []);

  async function continueWithGoogle() {
    setBusy(true);
    postLogin.save(intent);
    try {
      const { authorization_url } = await call('startGoogleLogin');
      window.location.assign(authorization_url);
    } catch {
      toasts.show({ type: 'error', title: t('auth.loginFailed'), duration: 3000 });
      setBusy(false);
    }
  }

  return (
    <Stack spacing={2}>
      <Button variant="contained" size="large" startIcon={<Google />} onClick={continueWithGoogle} disabled={busy}>
        {t('auth.continueWithGoogle')}
      </Button>
      <Button variant="outlined" size="large" startIcon={<PhoneIphoneOutlined />} onClick={() => {
          setPhoneUsed(true);
          setPhoneOpen(true);
        }}>
        {t('auth.continueWithPhone')}
      </Button>
      {phoneUsed && (
        <Suspense fallback={null}>
          <PhoneSignInDialog open={phoneOpen} onClose={() => setPhoneOpen(false)} intent={intent} />
        </Suspense>
      )}
    </Stack>
  );
}

/** The sign-in page; after signing in, people go where they were headed (RequireAuth's `from`), else home. */
export function LoginPage() {
  const t = useT();
  const from = (useLocation().state as { from?: unknown } | null)?.from;
  return (
    <Box component="main" sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', p: 2, bgcolor: 'background.default' }}>
      <Card sx={{ width: '100%', maxWidth: 420 }}>
        <CardContent sx={{ p: { xs: 3, sm: 4 } }}>
          <Stack spacing={2}>
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center', color: 'primary.main' }}>
              <MedicalServicesOutlined aria-hidden />
              <Typography variant="h4" component="h1">
                {PRODUCT_NAME}
              </Typography>
            </Stack>
            <Box sx={{ alignSelf: 'flex-end' }}>
              <LanguagePicker />
            </Box>
            <Typography color="text.secondary">{t('auth.tagline')}</Typography>
            <SignInButtons intent={typeof from === 'string' ? { path: from } : undefined} />
            <Typography variant="body2" color="text.secondary">
              {t.rich('auth.supportLine', {
                link: (words) => (
                  <Link component={RouterLink} to="/support">
                    {words}
                  </Link>
                ),
              })}
            </Typography>
          </Stack>
        </CardContent>
      </Card>
    </Box>
  );
}
