import { useEffect, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Box, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, Stack, Typography, useMediaQuery, useTheme } from '@mui/material';
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
import { MOVE_RULES, ruleText, type MoveRules } from './reschedule';

/** The appointment being moved, as the patient's list has it. */
export interface MovingAppointment {
  id: string;
  doctorId: string;
  doctorName: string;
  startAt: string;
  status: string;
  /** Moves the rules still allow it. */
  movesLeft: number;
}

const SLOT_MS = 30 * 60_000;

/** '{date} · {start} – {end}', as the appointment cards write a time. */
function useAppointmentTime(): (startAt: string) => string {
  const t = useT();
  const f = useFormat();
  return (startAt) => {
    const start = new Date(startAt);
    return t('patient.appointmentTime', { date: f.longDate(startAt), start: f.timeOfDay(start), end: f.timeOfDay(new Date(start.getTime() + SLOT_MS)) });
  };
}

/**
 * Moving an appointment (issue 35): the rule first, then the same doctor's open times to pick a new one, moved with the
 * reschedule route. A refusal is said in the dialog in the server's words (its code, translated), and the times are
 * asked again (the picked one may have just been taken).
 */
export function RescheduleDialog({
  open,
  appointment,
  onClose,
  rules = MOVE_RULES,
}: {
  open: boolean;
  /** Kept while the dialog closes, so its content does not vanish before it has. */
  appointment: MovingAppointment | null;
  onClose: () => void;
  rules?: MoveRules;
}) {
  const t = useT();
  const explain = useErrorText();
  const toasts = useToasts();
  const queryClient = useQueryClient();
  const timeOf = useAppointmentTime();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const [chosen, setChosen] = useState<Slot | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const id = appointment?.id;
  const doctorId = appointment?.doctorId ?? '';
  useEffect(() => {
    setChosen(null);
    setRefusal(null);
  }, [id, open]);

  // The times the doctor's page offers to book, in the patient's zone (the appointment's own is not among them).
  const slots = useQuery({
    queryKey: ['doctors', doctorId, 'slots', 'reschedule'],
    enabled: open && doctorId !== '',
    queryFn: () => call('getDoctorAvailableSlots', { params: { doctor_id: doctorId }, query: { timezone_str: browserZone() } }).then((r) => upcoming(r.slots)),
  });
  const move = useMutation({
    mutationFn: ({ appointmentId, slotId }: { appointmentId: string; slotId: number }) => call('rescheduleAppointment', { params: { id: appointmentId }, body: { slot_id: slotId } }),
    onSuccess: (result) => {
      const doctor = appointment?.doctorName ?? '';
      toasts.show({
        type: 'success',
        title: t('patient.rescheduledTitle'),
        // The server's answer says whether it waits for the doctor again (a confirmed one does).
        message: t(result.status === 'requested' ? 'patient.rescheduledAwaitingText' : 'patient.rescheduledText', { doctor, when: timeOf(result.start) }),
        duration: 8000,
      });
      onClose();
      return queryClient.invalidateQueries({ queryKey: ['appointments'] });
    },
    onError: (error) => {
      setRefusal(explain(error, 'patient.rescheduleFailed'));
      if (error instanceof ApiError && error.status === 409) {
        setChosen(null);
        void slots.refetch();
      }
    },
  });

  const list = slots.data ?? [];
  const pick = (slot: Slot) => {
    setChosen(slot);
    setRefusal(null);
  };
  return (
    <Dialog open={open} onClose={move.isPending ? undefined : onClose} fullWidth fullScreen={phone} maxWidth="sm" aria-labelledby="reschedule-title" data-testid="reschedule-dialog">
      <DialogTitle id="reschedule-title">{t('patient.rescheduleTitle')}</DialogTitle>
      {appointment && (
        <DialogContent dividers>
          <Stack spacing={2}>
            <Box>
              <TruncatedText text={appointment.doctorName || t('patient.unknownDoctor')} sx={{ fontWeight: 600 }} />
              <Typography color="text.secondary">{t('patient.rescheduleCurrent', { when: timeOf(appointment.startAt) })}</Typography>
            </Box>
            {/* Read with the dialog, not announced over it as an alert would be. */}
            <Alert severity="info" role="note" data-testid="reschedule-rule">
              <div>{ruleText(t, rules)}</div>
              <div>{t('patient.rescheduleMovesLeft', { count: appointment.movesLeft })}</div>
              {appointment.status === 'confirmed' && <div>{t(rules.autoAcceptMoves ? 'patient.rescheduleStaysConfirmed' : 'patient.rescheduleNeedsApproval')}</div>}
            </Alert>
            <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
              {t('patient.rescheduleChoose')}
            </Typography>
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
                <Typography color="text.secondary">{t('patient.rescheduleNoSlots')}</Typography>
              </Stack>
            )}
            {list.length > 0 && <SlotPicker slots={list} doctorName={appointment.doctorName} onPick={pick} selectedId={chosen?.slot_id ?? null} disabled={move.isPending} />}
            {chosen && (
              <Typography sx={{ fontWeight: 600 }} data-testid="reschedule-new-time" role="status">
                {t('patient.rescheduleNewTime', { when: timeOf(chosen.start_at) })}
              </Typography>
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
        <Button onClick={onClose} disabled={move.isPending}>
          {t('patient.rescheduleKeep')}
        </Button>
        <Button
          variant="contained"
          disabled={!chosen || move.isPending}
          onClick={() => appointment && chosen && move.mutate({ appointmentId: appointment.id, slotId: chosen.slot_id })}
        >
          {t(move.isPending ? 'patient.rescheduleMoving' : 'patient.rescheduleMove')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
