import { useMemo } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, api } from '../../../lib/api';
import { useToasts } from '../../../lib/toasts';
import { keyFromSlot, toPayload, type SlotKey } from './model';

interface ScheduleSlot {
  slot_date: string;
  start_time: string;
  end_time: string;
  start_at: string;
  is_booked: boolean;
}

/** The doctor's schedule as the calendar shows it, and saving it. */
export function useSchedule(zone: string) {
  const toasts = useToasts();
  const queryClient = useQueryClient();
  const schedule = useQuery({
    queryKey: ['schedule', zone],
    queryFn: () => api<ScheduleSlot[]>(`/schedule-v2/get_appointments_v2/?timezone_str=${encodeURIComponent(zone)}`).catch(() => [] as ScheduleSlot[]),
  });
  const { available, booked } = useMemo(() => {
    const sets = { available: new Set<SlotKey>(), booked: new Set<SlotKey>() };
    for (const slot of schedule.data ?? []) {
      const key = keyFromSlot(slot);
      if (key) (slot.is_booked ? sets.booked : sets.available).add(key);
    }
    return sets;
  }, [schedule.data]);
  const save = useMutation({
    mutationFn: (keys: SlotKey[]) => api('/schedule-v2/set_availability_v2/', { method: 'POST', body: toPayload(keys, zone) }),
    onSuccess: () => {
      toasts.show({ type: 'success', title: 'Availability saved' });
      return queryClient.invalidateQueries();
    },
    onError: (error) => toasts.show({ type: 'error', title: error instanceof ApiError ? error.detail : 'Failed to save availability' }),
  });
  return { schedule, available, booked, save, upcoming: (schedule.data ?? []).filter((s) => !s.is_booked) };
}
