import { useEffect, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Box, Button, Chip, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, Stack, Typography, useMediaQuery, useTheme } from '@mui/material';
import EventBusyOutlined from '@mui/icons-material/EventBusyOutlined';
import { ApiError } from '../../lib/api';
import { call } from '../../lib/client';
import { browserZone } from '../../lib/time';
import { useSession } from '../../lib/session';
import { useToasts } from '../../lib/toasts';
import { useErrorText } from '../../i18n/errorText';
import { useFormat } from '../../i18n/format';
import { useT } from '../../i18n/useT';
import { SlotPicker } from '../../components/SlotPicker';
import { TruncatedText } from '../../components/TruncatedText';
import { upcoming, type Slot } from '../patient/types';
import { MAX_OFFERED_TIMES } from '../patient/proposal';

/** The appointment other times are offered for, as the doctor's list has it. */
export interface OfferingAppointment {
  id: string;
  patientName: string;
  startAt: string;
}

/**
 * Offering the patient other times (issue 35): the doctor's own open times, up to MAX_OFFERED_TIMES picked, sent with
 * the propose-times route. A refusal is said in the dialog in the server's words, and the open times are asked again.
 */
export function OfferTimesDialog({ open, appointment, onClose }: { open: boolean; appointment: OfferingAppointment | null; onClose: () => void }) {
  const t = useT();
  const f = useFormat();
  const explain = useErrorText();
  const toasts = useToasts();
  const queryClient = useQueryClient();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const me = useSession()?.user;
  const doctorId = me?.user_id ?? '';
  const [chosen, setChosen] = useState<Slot[]>([]);
  const [refusal, setRefusal] = useState<string | null>(null);
  const id = appointment?.id;
  useEffect(() => {
    setChosen([]);
    setRefusal(null);
  }, [id, open]);

  // The same open times the doctor's page offers patients (booked and held ones are not among them).
  const slots = useQuery({
    queryKey: ['doctors', doctorId, 'slots', 'offer'],
    enabled: open && doctorId !== '',
    queryFn: () => call('getDoctorAvailableSlots', { params: { doctor_id: doctorId }, query: { timezone_str: browserZone() } }).then((r) => upcoming(r.slots)),
  });
  const offer = useMutation({
    mutationFn: ({ appointmentId, slotIds }: { appointmentId: string; slotIds: number[] }) => call('proposeTimes', { params: { id: appointmentId }, body: { slot_ids: slotIds } }),
    onSuccess: () => {
      toasts.show({ type: 'success', title: t('doctor.offeredTimesToast', { patient: appointment?.patientName || t('patient.unknownPatient') }) });
      onClose();
      return queryClient.invalidateQueries({ queryKey: ['appointments'] });
    },
    onError: (error) => {
      setRefusal(explain(error, 'doctor.offerTimesFailed'));
      if (error instanceof ApiError && error.status === 409) void slots.refetch();
    },
  });
  // A time taken meanwhile leaves the choice with the list.
  const list = slots.data ?? [];
  const picked = chosen.filter((slot) => !slots.data || list.some((s) => s.slot_id === slot.slot_id));
  const full = picked.length >= MAX_OFFERED_TIMES;
  const toggle = (slot: Slot) => {
    setRefusal(null);
    setChosen((all) => (all.some((s) => s.slot_id === slot.slot_id) ? all.filter((s) => s.slot_id !== slot.slot_id) : all.length < MAX_OFFERED_TIMES ? [...all, slot] : all));
  };
  const timeOf = (slot: Slot) => f.whenPhrase(slot.start_at);
  return (
    <Dialog open={open} onClose={offer.isPending ? undefined : onClose} fullWidth fullScreen={phone} maxWidth="sm" aria-labelledby="offer-times-title" data-testid="offer-times-dialog">
      <DialogTitle id="offer-times-title">{t('doctor.offerTimesTitle')}</DialogTitle>
      {appointment && (
        <DialogContent dividers>
          <Stack spacing={2}>
            <Box>
              <TruncatedText text={appointment.patientName || t('patient.unknownPatient')} sx={{ fontWeight: 600 }} />
              <Typography color="text.secondary">{t('doctor.offerTimesCurrent', { when: f.whenPhrase(appointment.startAt) })}</Typography>
            </Box>
            <Alert severity="info" role="note">
              {t('doctor.offerTimesIntro', { max: MAX_OFFERED_TIMES })}
            </Alert>
            {slots.isLoading && (
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                <CircularProgress size={20} />
                <Typography>{t('doctor.offerTimesLoading')}</Typography>
              </Stack>
            )}
            {slots.isError && <Alert severity="warning">{t('doctor.offerTimesSlotsFailed')}</Alert>}
            {slots.isSuccess && list.length === 0 && (
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center', color: 'text.secondary' }}>
                <EventBusyOutlined fontSize="small" aria-hidden />
                <Typography color="text.secondary">{t('doctor.offerTimesNoSlots')}</Typography>
              </Stack>
            )}
            {list.length > 0 && (
              <SlotPicker
                slots={list}
                doctorName={me?.name ?? ''}
                onPick={toggle}
                selectedIds={picked.map((s) => s.slot_id)}
                isDisabled={(slot) => full && !picked.some((s) => s.slot_id === slot.slot_id)}
                disabled={offer.isPending}
              />
            )}
            <Box role="status">
              <Typography variant="subtitle2" component="p" data-testid="offer-times-count">
                {t('doctor.offerTimesChosen', { count: picked.length, max: MAX_OFFERED_TIMES })}
              </Typography>
              {full && (
                <Typography variant="body2" color="text.secondary">
                  {t('doctor.offerTimesMaxReached', { max: MAX_OFFERED_TIMES })}
                </Typography>
              )}
            </Box>
            {picked.length > 0 && (
              <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }} data-testid="offer-times-chosen">
                {[...picked]
                  .sort((a, b) => Date.parse(a.start_at) - Date.parse(b.start_at))
                  .map((slot) => (
                    <Chip key={slot.slot_id} label={timeOf(slot)} color="primary" variant="outlined" onDelete={offer.isPending ? undefined : () => toggle(slot)} />
                  ))}
              </Stack>
            )}
            {refusal && (
              <Alert severity="error" role="alert">
                {refusal}
              </Alert>
            )}
          </Stack>
        </DialogContent>
      )}
      <DialogActions disableSpacing sx={{ flexWrap: 'wrap', gap: 1 }}>
        <Button onClick={onClose} disabled={offer.isPending}>
          {t('doctor.offerTimesClose')}
        </Button>
        <Button
          variant="contained"
          disabled={picked.length === 0 || offer.isPending}
          onClick={() => appointment && offer.mutate({ appointmentId: appointment.id, slotIds: picked.map((s) => s.slot_id) })}
        >
          {t(offer.isPending ? 'doctor.offerTimesSending' : 'doctor.offerTimesSend', { count: picked.length })}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
