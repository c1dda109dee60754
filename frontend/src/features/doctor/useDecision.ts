import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../../lib/api';
import { call } from '../../lib/client';
import { useToasts } from '../../lib/toasts';
import { useRealtime } from '../../app/RealtimeProvider';

/** Approve or reject with the seeds' toasts. */
export function useDecision() {
  const toasts = useToasts();
  const queryClient = useQueryClient();
  const { dismissRequest } = useRealtime();
  return useMutation({
    mutationFn: async ({ id, action, reason }: { id: string; action: 'approve' | 'reject'; reason?: string | null }) =>
      action === 'approve' ? call('approveAppointment', { params: { id } }) : call('rejectAppointment', { params: { id }, body: { reason: reason ?? null } }),
    onSuccess: (_result, { id, action }) => {
      dismissRequest(id);
      toasts.show({ type: 'success', title: action === 'approve' ? 'Appointment approved successfully!' : 'Appointment rejected' });
      return queryClient.invalidateQueries({ queryKey: ['appointments'] });
    },
    onError: (error, { action }) => {
      const fallback = action === 'approve' ? 'Failed to approve appointment' : 'Failed to reject appointment';
      toasts.show({ type: 'error', title: error instanceof ApiError ? error.detail || fallback : 'Network error. Please try again.' });
    },
  });
}
