import { useQuery } from '@tanstack/react-query';
import type { BookingRules, BookingRulesSource } from '@telemed/contracts/booking-rules';
import type { ApiRoutes } from '@telemed/contracts';
import { call } from '../../lib/client';

type RulesView = ApiRoutes['getDoctorBookingRules']['response'];

/** The query key of a doctor's rules, for screens that change them to refresh what is shown. */
export const bookingRulesKey = (doctorId: string) => ['doctors', doctorId, 'booking-rules'] as const;

/** The rules as the screens use them (contracts' BookingRules), from the wire's snake_case. */
export function rulesFromView(view: Pick<RulesView, 'min_notice_minutes' | 'max_reschedules' | 'late_cancellation' | 'auto_accept_moves'>): BookingRules {
  return {
    minNoticeMinutes: view.min_notice_minutes,
    maxReschedules: view.max_reschedules,
    lateCancellation: view.late_cancellation,
    autoAcceptMoves: view.auto_accept_moves,
  };
}

/**
 * A doctor's cancellation and reschedule rules in effect (issue 35: their own, else their clinic's, else the product's),
 * as the server decides a patient's move with them: `GET /doctors/{id}/booking-rules`, no sign-in needed. `rules` is
 * null while loading or when the read failed (`isError`); a screen that must say something then may fall back to
 * DEFAULT_BOOKING_RULES, knowing the server's answer names the rule it applied.
 */
export function useBookingRules(doctorId: string | null | undefined): { rules: BookingRules | null; source: BookingRulesSource | null; isLoading: boolean; isError: boolean } {
  const query = useQuery({
    queryKey: bookingRulesKey(doctorId ?? ''),
    enabled: !!doctorId,
    queryFn: ({ signal }) => call('getDoctorBookingRules', { params: { doctor_id: doctorId! }, signal }),
    staleTime: 60_000,
  });
  return {
    rules: query.data ? rulesFromView(query.data) : null,
    source: query.data?.source ?? null,
    isLoading: query.isLoading,
    isError: query.isError,
  };
}
