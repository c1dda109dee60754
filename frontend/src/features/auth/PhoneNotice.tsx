import { Button, Dialog, DialogActions, DialogContent, DialogTitle } from '@mui/material';
import { useT } from '../../i18n/useT';

/** "Continue with Phone": the Coming Soon notice. */
export function PhoneNotice({ open, onClose }: { open: boolean; onClose: () => void }) {
  const t = useT();
  return (
    <Dialog open={open} onClose={onClose}>
      <DialogTitle>{t('auth.phoneComingSoonTitle')}</DialogTitle>
      <DialogContent>{t('auth.phoneComingSoonText')}</DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.ok')}</Button>
      </DialogActions>
    </Dialog>
  );
}
