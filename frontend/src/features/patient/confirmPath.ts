import type { Slot } from './types';

/** The Request Appointment page for a slot, with the seeds' query names (the page reads the facts from the server). */
export function confirmPath(doctor: { doctor_id: string; name: string }, slot: Pick<Slot, 'slot_id' | 'start_at'>): string {
  const params = new URLSearchParams({ slot_id: String(slot.slot_id), doctorName: doctor.name, doctor_id: doctor.doctor_id, startTime: slot.start_at });
  return `/confirm-appointment?${params}`;
}
