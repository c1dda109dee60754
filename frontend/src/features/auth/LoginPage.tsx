import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { Box, Button, Card, CardContent, Dialog, DialogActions, DialogContent, DialogTitle, Link, Stack, Typography } from '@mui/material';
import { api } from '../../lib/api';
import { useToasts } from '../../lib/toasts';

export const LOGIN_FAILED = 'Login failed. Please try again.';

/** "Continue with Google" (the authorization-code flow) and "Continue with Phone" (the Coming Soon notice). */
export function SignInButtons() {
  const toasts = useToasts();
  const [busy, setBusy] = useState(false);
  const [phoneNotice, setPhoneNotice] = useState(false);

  async function continueWithGoogle() {
    setBusy(true);
    try {
      const { authorization_url } = await api<{ authorization_url: string }>('/auth/google/authorize');
      window.location.assign(authorization_url);
    } catch {
      toasts.show({ type: 'error', title: LOGIN_FAILED, duration: 3000 });
      setBusy(false);
    }
  }

  return (
    <Stack spacing={2}>
      <Button variant="contained" size="large" onClick={continueWithGoogle} disabled={busy}>
        Continue with Google
      </Button>
      <Button variant="outlined" size="large" onClick={() => setPhoneNotice(true)}>
        Continue with Phone
      </Button>
      <Dialog open={phoneNotice} onClose={() => setPhoneNotice(false)}>
        <DialogTitle>Coming Soon</DialogTitle>
        <DialogContent>Phone login will be available soon. Please continue with Google.</DialogContent>
        <DialogActions>
          <Button onClick={() => setPhoneNotice(false)}>OK</Button>
        </DialogActions>
      </Dialog>
    </Stack>
  );
}

/** The sign-in page. */
export function LoginPage() {
  return (
    <Box sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', p: 2, bgcolor: 'grey.50' }}>
      <Card sx={{ width: '100%', maxWidth: 420 }}>
        <CardContent>
          <Stack spacing={2}>
            <Typography variant="h4" component="h1">
              Telemed
            </Typography>
            <Typography color="text.secondary">Video consultations with doctors across India. Sign in to book and manage your appointments.</Typography>
            <SignInButtons />
            <Typography variant="body2" color="text.secondary">
              24/7 Medical Support Available · <Link component={RouterLink} to="/support">Support Team Access</Link>
            </Typography>
          </Stack>
        </CardContent>
      </Card>
    </Box>
  );
}
