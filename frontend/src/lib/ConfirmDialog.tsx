import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { useT } from '../i18n/useT';
import type { ConfirmOptions } from './confirmOptions';

/** The question of useConfirm, answered true (confirm) or false (cancel, Escape, backdrop). */
export function ConfirmDialog({ options, answer }: { options: ConfirmOptions | null; answer: (value: boolean) => void }) {
  const t = useT();
  return (
    <Dialog open={options !== null} onClose={() => answer(false)} aria-labelledby="confirm-title" aria-describedby="confirm-message">
      <DialogTitle id="confirm-title">{options?.title}</DialogTitle>
      <DialogContent>
        <DialogContentText id="confirm-message">{options?.message}</DialogContentText>
      </DialogContent>
      <DialogActions>
        {!options?.acknowledgeOnly && <Button onClick={() => answer(false)}>{options?.cancelLabel ?? t('common.keep')}</Button>}
        <Button onClick={() => answer(true)} variant="contained" color={options?.destructive ? 'error' : 'primary'} autoFocus>
          {options?.confirmLabel ?? t(options?.acknowledgeOnly ? 'common.ok' : 'common.confirm')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
