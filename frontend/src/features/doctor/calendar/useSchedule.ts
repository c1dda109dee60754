import { useMemo } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiRoutes } from '@telemed/contracts';
import { call } from '../../../lib/client';
import { useToasts } from '../../../lib/toasts';
import { useT } from '../../../i18n/useT';
import { useErrorText } from '../../../i18n/errorText';
import { keyFromSlot, toPayload, type SlotKey } from './model';

type ScheduleSlots = ApiRoutes['listMySchedule']['response'];

/** The doctor's schedule as the calendar shows it, and saving it. */
export function useSchedule(zone: string) {
  const t = useT();
  const explain = useErrorText();
  const toasts = useToasts();
  const queryClient = useQueryClient();
  const schedule = useQuery({
    queryKey: ['schedule', zone],
    queryFn: () => call('listMySchedule', { query: { timezone_str: zone } }).catch((): ScheduleSlots => []),
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
    mutationFn: (keys: SlotKey[]) => call('setAvailability', { body: toPayload(keys, zone) }),
    onSuccess: () => {
      toasts.show({ type: 'success', title: t('doctor.availabilitySaved') });
      return queryClient.invalidateQueries();
    },
    onError: (error) => toasts.show({ type: 'error', title: explain(error, 'doctor.saveAvailabilityFailed') }),
  });
  return { schedule, available, booked, save, upcoming: (schedule.data ?? []).filter((s) => !s.is_booked) };
}
