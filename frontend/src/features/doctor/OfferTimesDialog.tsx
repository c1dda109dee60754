import { useEffect, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, Box, Chip, Stack, Typography } from '@mui/material';
import { call } from '../../lib/client';
import { useSession } from '../../lib/session';
import { useToasts } from '../../lib/toasts';
import { useErrorText } from '../../i18n/errorText';
import { useFormat } from '../../i18n/format';
import { useT } from '../../i18n/useT';
import { SlotPicker } from '../../components/SlotPicker';
import { SlotChoiceDialog, useSlotChoice } from '../../components/SlotChoiceDialog';
import type { Slot } from '../patient/types';
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
  const me = useSession()?.user;
  const [chosen, setChosen] = useState<Slot[]>([]);
  const id = appointment?.id;
  useEffect(() => setChosen([]), [id, open]);
  // The same open times the doctor's page offers patients (booked and held ones are not among them).
  const choice = useSlotChoice(me?.user_id ?? '', 'offer', open, id);
  const offer = useMutation({
    mutationFn: ({ appointmentId, slotIds }: { appointmentId: string; slotIds: number[] }) => call('proposeTimes', { params: { id: appointmentId }, body: { slot_ids: slotIds } }),
    onSuccess: () => {
      toasts.show({ type: 'success', title: t('doctor.offeredTimesToast', { patient: appointment?.patientName || t('patient.unknownPatient') }) });
      onClose();
      return queryClient.invalidateQueries({ queryKey: ['appointments'] });
    },
    // A time taken meanwhile leaves the choice with the list read again (below).
    onError: (error) => void choice.refused(explain(error, 'doctor.offerTimesFailed'), error),
  });
  const list = choice.slots.data ?? [];
  const picked = chosen.filter((slot) => !choice.slots.data || list.some((s) => s.slot_id === slot.slot_id));
  const full = picked.length >= MAX_OFFERED_TIMES;
  const toggle = (slot: Slot) => {
    choice.clearRefusal();
    setChosen((all) => (all.some((s) => s.slot_id === slot.slot_id) ? all.filter((s) => s.slot_id !== slot.slot_id) : all.length < MAX_OFFERED_TIMES ? [...all, slot] : all));
  };
  const timeOf = (slot: Slot) => f.whenPhrase(slot.start_at);
  return (
    <SlotChoiceDialog
      open={open}
      name="offer-times"
      texts={{
        title: t('doctor.offerTimesTitle'),
        loading: t('doctor.offerTimesLoading'),
        failed: t('doctor.offerTimesSlotsFailed'),
        empty: t('doctor.offerTimesNoSlots'),
        close: t('doctor.offerTimesClose'),
        confirm: t(offer.isPending ? 'doctor.offerTimesSending' : 'doctor.offerTimesSend', { count: picked.length }),
      }}
      busy={offer.isPending}
      onClose={onClose}
      onConfirm={() => appointment && offer.mutate({ appointmentId: appointment.id, slotIds: picked.map((s) => s.slot_id) })}
      confirmDisabled={picked.length === 0}
      subject={appointment && { name: appointment.patientName || t('patient.unknownPatient'), line: t('doctor.offerTimesCurrent', { when: f.whenPhrase(appointment.startAt) }) }}
      note={
        <Alert severity="info" role="note">
          {t('doctor.offerTimesIntro', { max: MAX_OFFERED_TIMES })}
        </Alert>
      }
      slots={choice.slots}
      list={list}
      picker={
        <SlotPicker
          slots={list}
          doctorName={me?.name ?? ''}
          onPick={toggle}
          selectedIds={picked.map((s) => s.slot_id)}
          isDisabled={(slot) => full && !picked.some((s) => s.slot_id === slot.slot_id)}
          disabled={offer.isPending}
        />
      }
      refusal={choice.refusal}
    >
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
    </SlotChoiceDialog>
  );
}
