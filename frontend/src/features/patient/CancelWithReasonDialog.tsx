import { useEffect, useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, TextField } from '@mui/material';
import { MAX_REASON_LENGTH } from '@telemed/contracts/constants';
import { useUnsavedChanges } from '../../lib/unsavedChanges';
import { useT } from '../../i18n/useT';

/**
 * A doctor's cancellation: the seeds' question, and a reason for the patient (optional; the API takes it and the
 * patient reads it on their appointment as 'Cancelled: {reason}').
 */
export function CancelWithReasonDialog({ open, what, busy, onKeep, onCancel }: { open: boolean; what: string; busy: boolean; onKeep(): void; onCancel(reason: string | null): void }) {
  const [reason, setReason] = useState('');
  const t = useT();
  useEffect(() => {
    if (open) setReason('');
  }, [open]);
  // Keep it drops the reason on purpose; a click outside or Escape with a reason written asks first.
  const { confirmDiscard } = useUnsavedChanges(open && reason.trim() !== '');
  return (
    <Dialog open={open} onClose={() => void confirmDiscard().then((discard) => discard && onKeep())} fullWidth maxWidth="xs" aria-labelledby="cancel-with-reason-title">
      <DialogTitle id="cancel-with-reason-title">{t('patient.cancelAppointmentQuestion')}</DialogTitle>
      <DialogContent>
        <DialogContentText>{t('patient.cancelAppointmentConfirm', { what })}</DialogContentText>
        <TextField
          label={t('patient.reasonForPatient')}
          helperText={t('patient.reasonForPatientHelp')}
          fullWidth
          multiline
          minRows={2}
          sx={{ mt: 2 }}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          slotProps={{ htmlInput: { maxLength: MAX_REASON_LENGTH } }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onKeep}>{t('patient.keepIt')}</Button>
        <Button color="error" variant="contained" disabled={busy} onClick={() => onCancel(reason.trim() || null)}>
          {t('patient.cancelAppointment')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
