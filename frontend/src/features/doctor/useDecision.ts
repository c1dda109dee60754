import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../../lib/api';
import { call } from '../../lib/client';
import { useToasts } from '../../lib/toasts';
import { useRealtime } from '../../app/RealtimeProvider';
import { useT } from '../../i18n/useT';
import { useErrorText } from '../../i18n/errorText';

/** Approve or reject with the seeds' toasts. */
export function useDecision() {
  const t = useT();
  const explain = useErrorText();
  const toasts = useToasts();
  const queryClient = useQueryClient();
  const { dismissRequest } = useRealtime();
  return useMutation({
    mutationFn: async ({ id, action, reason }: { id: string; action: 'approve' | 'reject'; reason?: string | null }) =>
      action === 'approve' ? call('approveAppointment', { params: { id } }) : call('rejectAppointment', { params: { id }, body: { reason: reason ?? null } }),
    onSuccess: (_result, { id, action }) => {
      dismissRequest(id);
      toasts.show({ type: 'success', title: t(action === 'approve' ? 'doctor.approvedToast' : 'doctor.rejectedToast') });
      return queryClient.invalidateQueries({ queryKey: ['appointments'] });
    },
    onError: (error, { action }) => {
      const fallback = action === 'approve' ? 'doctor.approveFailed' : 'doctor.rejectFailed';
      toasts.show({ type: 'error', title: error instanceof ApiError ? explain(error, fallback) : t('doctor.networkError') });
    },
  });
}
