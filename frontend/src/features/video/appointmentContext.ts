import { useQuery } from '@tanstack/react-query';
import { call } from '../../lib/client';
import type { MyAppointment } from '../../lib/myAppointments';
import { ENGLISH_TIME_WORDS, browserZone, whenPhrase, type TimeWords } from '../../lib/time';
import { timeWordsOf } from '../../i18n/format';
import { useT } from '../../i18n/useT';

/** Who the consultation is with and when it was booked for, as the lobby and the call say it. */
export interface AppointmentContext {
  /** The other participant: the doctor's name for a patient, the patient's for a doctor. */
  otherName: string;
  /** 'Today at 7:30 am', 'Tomorrow at …' (seed 001's phrases), in the chosen language. */
  when: string;
}

/** The context of one appointment from a row of the caller's own appointment list (either shape), its time in `words`' language. */
export function contextOf(row: MyAppointment, now = new Date(), zone = browserZone(), words: TimeWords = ENGLISH_TIME_WORDS): AppointmentContext {
  const otherName = 'patient_name' in row ? row.patient_name : row.doctor.name;
  return { otherName, when: whenPhrase(row.slot.start_at, now, zone, words) };
}

/**
 * The call page's appointment, read from the caller's upcoming appointments (the list the app's header already
 * asks for, so usually answered from its cache): until the other participant has joined, the consultation's own
 * record has no name for them. Null while unknown or when the list does not hold it; failures stay silent.
 */
export function useAppointmentContext(appointmentId: string): AppointmentContext | null {
  const t = useT();
  const { data } = useQuery({
    queryKey: ['appointments', 'me'],
    queryFn: () => call('listMyAppointments', { query: { timezone_str: browserZone() } }),
    enabled: appointmentId !== '',
  });
  const rows: MyAppointment[] = Array.isArray(data) ? data : [];
  const row = rows.find((r) => r.appointment_id === appointmentId);
  return row ? contextOf(row, new Date(), browserZone(), timeWordsOf(t)) : null;
}
