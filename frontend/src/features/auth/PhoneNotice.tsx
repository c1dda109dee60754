import { Dialog, DialogContent, DialogTitle, Typography } from '@mui/material';
import { call } from '../../lib/client';
import { postLogin, type PostLoginIntent } from '../../lib/postLogin';
import { useT } from '../../i18n/useT';
import { PhoneCodeForm } from './PhoneCodeForm';
import { useFinishSignIn } from './finishSignIn';

/**
 * "Continue with Phone": sign in with a code sent to a mobile number. The code's answer is the Google sign-in's, and
 * it goes on as that one does: the session stored, then where the person was headed (`intent`) or home. Its own chunk
 * (vite.config.ts names this file), fetched after the sign-in page has loaded.
 */
export function PhoneSignInDialog({ open, onClose, intent }: { open: boolean; onClose: () => void; intent?: PostLoginIntent }) {
  const t = useT();
  const finishSignIn = useFinishSignIn();
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="phone-sign-in-title">
      <DialogTitle id="phone-sign-in-title">{t('auth.phoneTitle')}</DialogTitle>
      <DialogContent>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {t('auth.phoneIntro')}
        </Typography>
        <PhoneCodeForm
          send={(phone_number) => call('startPhoneSignIn', { body: { phone_number } })}
          verify={(phone_number, code, challenge) => call('verifyPhoneSignIn', { body: { phone_number, code, challenge } })}
          onVerified={(result) => {
            postLogin.save(intent);
            return finishSignIn(result, 'phone');
          }}
          onCancel={onClose}
        />
      </DialogContent>
    </Dialog>
  );
}
