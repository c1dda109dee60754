import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, api } from '../../lib/api';
import { useToasts } from '../../lib/toasts';
import { useRealtime } from '../../app/RealtimeProvider';

/** Approve or reject with the seeds' toasts. */
export function useDecision() {
  const toasts = useToasts();
  const queryClient = useQueryClient();
  const { dismissRequest } = useRealtime();
  return useMutation({
    mutationFn: async ({ id, action, reason }: { id: string; action: 'approve' | 'reject'; reason?: string | null }) =>
      api(`/appointments/${id}/${action}`, { method: 'POST', body: action === 'reject' ? { reason: reason ?? null } : undefined }),
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
