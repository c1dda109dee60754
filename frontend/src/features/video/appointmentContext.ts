import { useQuery } from '@tanstack/react-query';
import { call } from '../../lib/client';
import type { MyAppointment } from '../../lib/myAppointments';
import { browserZone, whenPhrase } from '../../lib/time';

/** Who the consultation is with and when it was booked for, as the lobby and the call say it. */
export interface AppointmentContext {
  /** The other participant: the doctor's name for a patient, the patient's for a doctor. */
  otherName: string;
  /** 'Today at 7:30 am', 'Tomorrow at …' (seed 001's phrases). */
  when: string;
}

/** The context of one appointment from a row of the caller's own appointment list (either shape). */
export function contextOf(row: MyAppointment, now = new Date(), zone = browserZone()): AppointmentContext {
  const otherName = 'patient_name' in row ? row.patient_name : row.doctor.name;
  return { otherName, when: whenPhrase(row.slot.start_at, now, zone) };
}

/**
 * The call page's appointment, read from the caller's upcoming appointments (the list the app's header already
 * asks for, so usually answered from its cache): until the other participant has joined, the consultation's own
 * record has no name for them. Null while unknown or when the list does not hold it; failures stay silent.
 */
export function useAppointmentContext(appointmentId: string): AppointmentContext | null {
  const { data } = useQuery({
    queryKey: ['appointments', 'me'],
    queryFn: () => call('listMyAppointments', { query: { timezone_str: browserZone() } }),
    enabled: appointmentId !== '',
  });
  const rows: MyAppointment[] = Array.isArray(data) ? data : [];
  const row = rows.find((r) => r.appointment_id === appointmentId);
  return row ? contextOf(row) : null;
}
