import { useEffect, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, TextField, Typography } from '@mui/material';
import { call } from '../../lib/client';
import { useToasts } from '../../lib/toasts';
import { useErrorText } from '../../i18n/errorText';
import { useFormat } from '../../i18n/format';
import { useT } from '../../i18n/useT';
import { SlotPicker } from '../../components/SlotPicker';
import { SlotChoiceDialog, useSlotChoice } from '../../components/SlotChoiceDialog';
import type { Slot } from './types';
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
  const [chosen, setChosen] = useState<Slot | null>(null);
  const [reason, setReason] = useState('');
  const id = consultation?.id;
  const startAt = consultation?.startAt;
  useEffect(() => {
    setChosen(null);
    setReason(startAt ? t('patient.followUpReasonDefault', { date: f.longDate(startAt) }) : '');
    // The default reason is set again only for another consultation (or the dialog opened again), not as the language loads.
  }, [id, open]);
  const choice = useSlotChoice(consultation?.doctorId ?? '', 'follow-up', open, id);
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
      if (choice.refused(explain(error, 'patient.followUpFailed'), error)) setChosen(null);
    },
  });

  const pick = (slot: Slot) => {
    setChosen(slot);
    choice.clearRefusal();
  };
  const list = consultation ? slotsInWindow(choice.slots.data ?? [], consultation.offer) : [];
  const notes = reason.trim();
  return (
    <SlotChoiceDialog
      open={open}
      name="follow-up"
      texts={{
        title: t('patient.followUpTitle'),
        loading: t('patient.rescheduleLoadingSlots'),
        failed: t('patient.rescheduleSlotsFailed'),
        empty: t('patient.followUpNoSlots'),
        close: t('patient.followUpNotNow'),
        confirm: t(book.isPending ? 'patient.followUpBooking' : 'patient.followUpBook'),
      }}
      busy={book.isPending}
      onClose={onClose}
      onConfirm={() => consultation && chosen && book.mutate({ slot: chosen, earlierId: consultation.id, notes })}
      confirmDisabled={!chosen || notes === ''}
      subject={consultation && { name: consultation.doctorName || t('patient.unknownDoctor'), line: t('patient.followUpOfConsultation', { date: f.longDate(consultation.startAt) }) }}
      note={
        consultation && (
          <Alert severity="info" role="note" data-testid="follow-up-window">
            <div>{t('patient.followUpWindow', { until: f.whenPhrase(consultation.offer.until) })}</div>
            <div>{consultation.offer.fee === 0 ? t('patient.followUpFree') : t('patient.followUpFee', { fee: f.rupees(consultation.offer.fee) })}</div>
          </Alert>
        )
      }
      slots={choice.slots}
      list={list}
      picker={<SlotPicker slots={list} doctorName={consultation?.doctorName ?? ''} onPick={pick} selectedId={chosen?.slot_id ?? null} disabled={book.isPending} />}
      refusal={choice.refusal}
    >
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
    </SlotChoiceDialog>
  );
}
