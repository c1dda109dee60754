import { useEffect, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, Typography } from '@mui/material';
import { call } from '../../lib/client';
import { useToasts } from '../../lib/toasts';
import { useErrorText } from '../../i18n/errorText';
import { useFormat } from '../../i18n/format';
import { useT } from '../../i18n/useT';
import { SlotPicker } from '../../components/SlotPicker';
import { SlotChoiceDialog, useSlotChoice } from '../../components/SlotChoiceDialog';
import type { Slot } from './types';
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
  const [chosen, setChosen] = useState<Slot | null>(null);
  const id = appointment?.id;
  useEffect(() => setChosen(null), [id, open]);
  // The times the doctor's page offers to book, in the patient's zone (the appointment's own is not among them).
  const choice = useSlotChoice(appointment?.doctorId ?? '', 'reschedule', open, id);
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
      if (choice.refused(explain(error, 'patient.rescheduleFailed'), error)) setChosen(null);
    },
  });

  const list = choice.slots.data ?? [];
  const pick = (slot: Slot) => {
    setChosen(slot);
    choice.clearRefusal();
  };
  return (
    <SlotChoiceDialog
      open={open}
      name="reschedule"
      texts={{
        title: t('patient.rescheduleTitle'),
        loading: t('patient.rescheduleLoadingSlots'),
        failed: t('patient.rescheduleSlotsFailed'),
        empty: t('patient.rescheduleNoSlots'),
        close: t('patient.rescheduleKeep'),
        confirm: t(move.isPending ? 'patient.rescheduleMoving' : 'patient.rescheduleMove'),
      }}
      busy={move.isPending}
      onClose={onClose}
      onConfirm={() => appointment && chosen && move.mutate({ appointmentId: appointment.id, slotId: chosen.slot_id })}
      confirmDisabled={!chosen}
      subject={appointment && { name: appointment.doctorName || t('patient.unknownDoctor'), line: t('patient.rescheduleCurrent', { when: timeOf(appointment.startAt) }) }}
      note={
        appointment && (
          // Read with the dialog, not announced over it as an alert would be.
          <Alert severity="info" role="note" data-testid="reschedule-rule">
            <div>{ruleText(t, rules)}</div>
            <div>{t('patient.rescheduleMovesLeft', { count: appointment.movesLeft })}</div>
            {appointment.status === 'confirmed' && <div>{t(rules.autoAcceptMoves ? 'patient.rescheduleStaysConfirmed' : 'patient.rescheduleNeedsApproval')}</div>}
          </Alert>
        )
      }
      slots={choice.slots}
      list={list}
      picker={
        <>
          <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600 }}>
            {t('patient.rescheduleChoose')}
          </Typography>
          <SlotPicker slots={list} doctorName={appointment?.doctorName ?? ''} onPick={pick} selectedId={chosen?.slot_id ?? null} disabled={move.isPending} />
        </>
      }
      refusal={choice.refusal}
    >
      {chosen && (
        <Typography sx={{ fontWeight: 600 }} data-testid="reschedule-new-time" role="status">
          {t('patient.rescheduleNewTime', { when: timeOf(chosen.start_at) })}
        </Typography>
      )}
    </SlotChoiceDialog>
  );
}
