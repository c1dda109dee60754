import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { call } from '../../lib/client';
import { doctorRows } from '../../lib/myAppointments';
import { browserZone } from '../../lib/time';
import { recordsApi } from './api';

/** The appointment of the page (`/video-call?appointment_id=…`, seed 001 §2). */
export function useAppointmentId(): string {
  const [params] = useSearchParams();
  return params.get('appointment_id') ?? '';
}

/** For a doctor: who the appointment's patient is (from the doctor's own appointments), or null. */
export async function findAppointmentPatient(appointmentId: string) {
  const rows = doctorRows(await call('listMyAppointments', { query: { status: 'confirmed,completed', include_past: 'true', timezone_str: browserZone() } }));
  const row = rows.find((r) => r.appointment_id === appointmentId);
  return row ? { patientId: row.patient_id, patientName: row.patient_name } : null;
}

/** For a doctor: who the appointment's patient is (from the doctor's own appointments), or null while unknown. */
export function useAppointmentPatient(appointmentId: string, enabled = true) {
  return useQuery({
    queryKey: ['records', 'appointment-patient', appointmentId],
    enabled: enabled && appointmentId !== '',
    staleTime: 60_000,
    queryFn: () => findAppointmentPatient(appointmentId),
  });
}

/** A patient's records as their doctor reads them (GET /patients/{id}/records). */
export function usePatientRecords(patientId: string | undefined) {
  return useQuery({
    queryKey: ['records', 'patient', patientId],
    enabled: Boolean(patientId),
    queryFn: () => recordsApi.ofPatient(patientId!),
  });
}
