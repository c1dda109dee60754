import type { ApiRoutes, DoctorAppointment, PatientAppointment } from '@telemed/contracts';

/** GET /appointments/me: a doctor is answered with their appointments as a doctor sees them, a patient as a patient does. */
export type MyAppointments = ApiRoutes['listMyAppointments']['response'];
export type MyAppointment = MyAppointments[number];

/** The rows of a doctor's list (each names its patient). */
export function doctorRows(list: MyAppointments): DoctorAppointment[] {
  const rows: MyAppointment[] = list;
  return rows.filter((row): row is DoctorAppointment => 'patient_id' in row);
}

/** The rows of a patient's list (each names its doctor). */
export function patientRows(list: MyAppointments): PatientAppointment[] {
  const rows: MyAppointment[] = list;
  return rows.filter((row): row is PatientAppointment => 'doctor' in row);
}
