import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../../lib/api';
import { call } from '../../lib/client';
import { useConfirm } from '../../lib/confirm';
import { useToasts } from '../../lib/toasts';
import { useErrorText } from '../../i18n/errorText';
import { useFormat } from '../../i18n/format';
import { useT } from '../../i18n/useT';

/** The appointment whose patient is marked absent, as the doctor's screens have it. */
export interface AbsentPatient {
  id: string;
  patientName: string;
  startAt: string;
}

/**
 * Marking the patient absent (issue 35), asked first: `ask(appointment)` resolves once answered and, if confirmed,
 * sent. The server's refusal (too early, too late, the patient joined) is said in its words.
 */
export function useMarkAbsent(onMarked?: () => void) {
  const t = useT();
  const f = useFormat();
  const confirm = useConfirm();
  const explain = useErrorText();
  const toasts = useToasts();
  const queryClient = useQueryClient();
  const mark = useMutation({
    mutationFn: (id: string) => call('markPatientAbsent', { params: { id } }),
    onSuccess: () => {
      toasts.show({ type: 'success', title: t('doctor.markedAbsentToast') });
      onMarked?.();
      return queryClient.invalidateQueries({ queryKey: ['appointments'] });
    },
    onError: (error) => {
      const refused = error instanceof ApiError && error.status === 409;
      toasts.show({ type: 'error', title: t('doctor.markAbsentFailed'), ...(refused ? { message: explain(error, 'doctor.markAbsentFailed') } : {}), duration: 8000 });
      return queryClient.invalidateQueries({ queryKey: ['appointments'] });
    },
  });
  const ask = async (appointment: AbsentPatient) => {
    const ok = await confirm({
      title: t('doctor.markAbsentQuestion'),
      message: t('doctor.markAbsentConfirm', { patient: appointment.patientName || t('patient.unknownPatient'), when: f.whenPhrase(appointment.startAt) }),
      confirmLabel: t('doctor.markAbsentConfirmButton'),
      cancelLabel: t('doctor.markAbsentKeepWaiting'),
      destructive: true,
    });
    if (ok) mark.mutate(appointment.id);
  };
  return { ask, isPending: mark.isPending };
}
