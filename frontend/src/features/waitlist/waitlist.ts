import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiRoutes } from '@telemed/contracts';
import { WAITLIST_MAX_DAYS } from '@telemed/contracts/constants';
import { call } from '../../lib/client';
import { browserZone } from '../../lib/time';
import { localDate } from '../../components/slotDays';
import { useT, type MessageId } from '../../i18n/useT';
import { useToasts } from '../../lib/toasts';
import { agreeToNotice, consentsKey } from '../patient/consent';

type ConsentNotice = Parameters<typeof agreeToNotice>[0];

/** A patient's place on a doctor's waitlist (issue 35), as GET /waitlist/me answers. */
export type WaitlistPlace = ApiRoutes['listMyWaitlist']['response'][number];

export const waitlistKey = ['waitlist', 'me'] as const;

/** Days suggested for a new place: today and the six after it. */
export const SUGGESTED_DAYS = 7;

const DAY_MS = 86_400_000;

/** What is wrong with a stretch of days the patient typed (its message id), or null; the server checks the same. */
export function rangeProblem(from: string, to: string, today: string): MessageId | null {
  if (!from || !to) return 'waitlist.daysRequired';
  if (from < today) return 'waitlist.daysInPast';
  if (to < from) return 'waitlist.daysOrder';
  if ((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS + 1 > WAITLIST_MAX_DAYS) return 'waitlist.daysTooMany';
  return null;
}

/** Today in the browser's zone, as the server reads the days of a place joined from here. */
export const todayHere = (now = new Date()) => localDate(now, browserZone());

/** The patient's open places; none for anyone else (only patients wait). */
export function useMyWaitlist(enabled = true) {
  return useQuery({ queryKey: waitlistKey, enabled, queryFn: () => call('listMyWaitlist') });
}

/** Whether a doctor has no open time in the coming days: then the waitlist is offered beside their slots. */
export function noTimeSoon(slots: ReadonlyArray<{ start_at: string }>, now = new Date()): boolean {
  const horizon = now.getTime() + SUGGESTED_DAYS * DAY_MS;
  return !slots.some((slot) => new Date(slot.start_at).getTime() < horizon);
}

/**
 * Joining, leaving, and answering an offer: each reads the places (and the appointments, for a booking) again. A join
 * and a booking are said in a toast here, not by the screen that asked: a booked place leaves the screen at once.
 */
export function useWaitlistActions() {
  const queryClient = useQueryClient();
  const toasts = useToasts();
  const t = useT();
  const refresh = () => queryClient.invalidateQueries({ queryKey: waitlistKey });
  return {
    join: useMutation({
      mutationFn: async (input: { doctorId: string; doctorName: string; from: string; to: string; agree?: ConsentNotice }) => {
        // The box is ticked under the notice shown, so what is agreed to is what was read.
        if (input.agree) await agreeToNotice(input.agree);
        return call('joinWaitlist', { params: { doctor_id: input.doctorId }, body: { from: input.from, to: input.to, timezone: browserZone() } });
      },
      onSuccess: (_place, input) => toasts.show({ type: 'success', title: t('waitlist.joined'), message: t('waitlist.joinedText', { doctor: input.doctorName }) }),
      onSettled: async () => {
        await refresh();
        await queryClient.invalidateQueries({ queryKey: consentsKey });
      },
    }),
    leave: useMutation({ mutationFn: (doctorId: string) => call('leaveWaitlist', { params: { doctor_id: doctorId } }), onSettled: refresh }),
    decline: useMutation({ mutationFn: (doctorId: string) => call('declineWaitlistOffer', { params: { doctor_id: doctorId } }), onSettled: refresh }),
    accept: useMutation({
      mutationFn: (input: { doctorId: string; doctorName: string; notes: string }) => call('acceptWaitlistOffer', { params: { doctor_id: input.doctorId }, body: { notes: input.notes } }),
      onSuccess: (_booked, input) => toasts.show({ type: 'success', title: t('waitlist.booked'), message: t('waitlist.bookedText', { doctor: input.doctorName }) }),
      onSettled: async () => {
        await refresh();
        await queryClient.invalidateQueries({ queryKey: ['appointments'] });
      },
    }),
  };
}
