import { useEffect, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Box, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, Stack, TextField, Typography, useMediaQuery, useTheme } from '@mui/material';
import EventBusyOutlined from '@mui/icons-material/EventBusyOutlined';
import { ApiError } from '../../lib/api';
import { call } from '../../lib/client';
import { browserZone } from '../../lib/time';
import { useToasts } from '../../lib/toasts';
import { useErrorText } from '../../i18n/errorText';
import { useFormat } from '../../i18n/format';
import { useT } from '../../i18n/useT';
import { SlotPicker } from '../../components/SlotPicker';
import { TruncatedText } from '../../components/TruncatedText';
import { upcoming, type Slot } from './types';
import { slotsInWindow, type FollowUpOffer } from './followUp';

/** The completed consultation a follow-up is booked on, as the patient's list has it. */
export interface FollowingUp {
  id: string;
  doctorId: string;
  doctorName: string;
  startAt: string;
  offer: FollowUpOffer;
}

/**
 * Booking a follow-up (issue 35): the same doctor's open times inside the window they offered, picked in the slot
 * picker, requested with `follow_up_of` (the doctor then approves it as any request). A refusal is said in the
 * server's words, and the times asked again.
 */
export function FollowUpDialog({ open, consultation, onClose }: { open: boolean; consultation: FollowingUp | null; onClose: () => void }) {
  const t = useT();
  const f = useFormat();
  const explain = useErrorText();
  const toasts = useToasts();
  const queryClient = useQueryClient();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const [chosen, setChosen] = useState<Slot | null>(null);
  const [reason, setReason] = useState('');
  const [refusal, setRefusal] = useState<string | null>(null);
  const id = consultation?.id;
  const doctorId = consultation?.doctorId ?? '';
  const startAt = consultation?.startAt;
  useEffect(() => {
    setChosen(null);
    setRefusal(null);
    setReason(startAt ? t('patient.followUpReasonDefault', { date: f.longDate(startAt) }) : '');
    // The default reason is set again only for another consultation (or the dialog opened again), not as the language loads.
  }, [id, open]);

  const slots = useQuery({
    queryKey: ['doctors', doctorId, 'slots', 'follow-up'],
    enabled: open && doctorId !== '',
    queryFn: () => call('getDoctorAvailableSlots', { params: { doctor_id: doctorId }, query: { timezone_str: browserZone() } }).then((r) => upcoming(r.slots)),
  });
  const book = useMutation({
    mutationFn: (input: { slot: Slot; earlierId: string; notes: string }) =>
      call('requestAppointment', { body: { slot_id: input.slot.slot_id, notes: input.notes, follow_up_of: input.earlierId } }).then(() => input.slot),
    onSuccess: (slot) => {
      toasts.show({
        type: 'success',
        title: t('patient.followUpBookedTitle'),
        message: t('patient.followUpBookedText', { doctor: consultation?.doctorName ?? '', when: f.whenPhrase(slot.start_at) }),
        duration: 8000,
      });
      onClose();
      return queryClient.invalidateQueries({ queryKey: ['appointments'] });
    },
    onError: (error) => {
      setRefusal(explain(error, 'patient.followUpFailed'));
      if (error instanceof ApiError && error.status === 409) {
        setChosen(null);
        void slots.refetch();
      }
    },
  });

  const pick = (slot: Slot) => {
    setChosen(slot);
    setRefusal(null);
  };
  const list = consultation ? slotsInWindow(slots.data ?? [], consultation.offer) : [];
  const notes = reason.trim();
  return (
    <Dialog open={open} onClose={book.isPending ? undefined : onClose} fullWidth fullScreen={phone} maxWidth="sm" aria-labelledby="follow-up-title" data-testid="follow-up-dialog">
      <DialogTitle id="follow-up-title">{t('patient.followUpTitle')}</DialogTitle>
      {consultation && (
        <DialogContent dividers>
          <Stack spacing={2}>
            <Box>
              <TruncatedText text={consultation.doctorName || t('patient.unknownDoctor')} sx={{ fontWeight: 600 }} />
              <Typography color="text.secondary">{t('patient.followUpOfConsultation', { date: f.longDate(consultation.startAt) })}</Typography>
            </Box>
            <Alert severity="info" role="note" data-testid="follow-up-window">
              <div>{t('patient.followUpWindow', { until: f.whenPhrase(consultation.offer.until) })}</div>
              <div>{consultation.offer.fee === 0 ? t('patient.followUpFree') : t('patient.followUpFee', { fee: f.rupees(consultation.offer.fee) })}</div>
            </Alert>
            {slots.isLoading && (
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                <CircularProgress size={20} />
                <Typography>{t('patient.rescheduleLoadingSlots')}</Typography>
              </Stack>
            )}
            {slots.isError && <Alert severity="warning">{t('patient.rescheduleSlotsFailed')}</Alert>}
            {slots.isSuccess && list.length === 0 && (
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center', color: 'text.secondary' }}>
                <EventBusyOutlined fontSize="small" aria-hidden />
                <Typography color="text.secondary">{t('patient.followUpNoSlots')}</Typography>
              </Stack>
            )}
            {list.length > 0 && <SlotPicker slots={list} doctorName={consultation.doctorName} onPick={pick} selectedId={chosen?.slot_id ?? null} disabled={book.isPending} />}
            {chosen && (
              <Typography sx={{ fontWeight: 600 }} data-testid="follow-up-time" role="status">
                {t('patient.followUpChosen', { when: f.whenPhrase(chosen.start_at) })}
              </Typography>
            )}
            <TextField
              label={t('patient.followUpReasonLabel')}
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              disabled={book.isPending}
              multiline
              minRows={2}
              required
              error={notes === ''}
              slotProps={{ htmlInput: { maxLength: 1000 } }}
            />
            {refusal && (
              <Alert severity="error" role="alert">
                {refusal}
              </Alert>
            )}
          </Stack>
        </DialogContent>
      )}
      <DialogActions disableSpacing sx={{ flexWrap: 'wrap', gap: 1 }}>
        <Button onClick={onClose} disabled={book.isPending}>
          {t('patient.followUpNotNow')}
        </Button>
        <Button
          variant="contained"
          disabled={!chosen || notes === '' || book.isPending}
          onClick={() => consultation && chosen && book.mutate({ slot: chosen, earlierId: consultation.id, notes })}
        >
          {t(book.isPending ? 'patient.followUpBooking' : 'patient.followUpBook')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
