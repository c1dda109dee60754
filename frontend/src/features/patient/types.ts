import type { z, doctorWithSlotsSchema, doctorSchema, slotSchema } from '@telemed/contracts';

export type Slot = z.infer<typeof slotSchema>;
export type Doctor = z.infer<typeof doctorSchema>;
export type DoctorWithSlots = z.infer<typeof doctorWithSlotsSchema>;

/** A slot counts as upcoming only if available and in the future; sorted by start. */
export function upcoming(slots: Slot[], now = Date.now()): Slot[] {
  return slots.filter((s) => s.is_available && Date.parse(s.start_at) > now).sort((a, b) => Date.parse(a.start_at) - Date.parse(b.start_at));
}

/** Case-insensitive substring match on name, specialty or qualification. */
export function matchesSearch(doctor: Doctor, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  return [doctor.name, doctor.specialty, doctor.qualification].some((field) => field.toLowerCase().includes(q));
}
