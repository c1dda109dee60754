import { useState } from 'react';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, TextField } from '@mui/material';
import { useUnsavedChanges } from '../../lib/unsavedChanges';
import { useT } from '../../i18n/useT';

/** 'Reject Appointment': an optional reason, Cancel and Reject Appointment. */
export function RejectDialog({ patientName, open, onCancel, onReject }: { patientName: string; open: boolean; onCancel: () => void; onReject: (reason: string | null) => void }) {
  const t = useT();
  const [reason, setReason] = useState('');
  // Cancel drops the reason on purpose; a click outside or Escape with a reason written asks first.
  const { confirmDiscard } = useUnsavedChanges(open && reason.trim() !== '');
  return (
    <Dialog open={open} onClose={() => void confirmDiscard().then((discard) => discard && onCancel())} fullWidth maxWidth="xs">
      <DialogTitle>{t('doctor.rejectAppointment')}</DialogTitle>
      <DialogContent>
        <DialogContentText>{t('doctor.rejectQuestion', { name: patientName })}</DialogContentText>
        <TextField label={t('doctor.rejectReasonLabel')} fullWidth multiline minRows={2} sx={{ mt: 2 }} value={reason} onChange={(e) => setReason(e.target.value)} />
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel}>{t('doctor.cancel')}</Button>
        <Button color="error" variant="contained" onClick={() => onReject(reason.trim() || null)}>
          {t('doctor.rejectAppointment')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
