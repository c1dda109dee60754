/**
 * Slot ids are integers (the API requires it) derived from the doctor's number and the slot's start minute, so
 * the same doctor and start always give the same id: stable across replays and re-saves, with nothing to allocate.
 */
const EPOCH_MS = Date.UTC(2020, 0, 1);
const MINUTES_PER_DOCTOR = 1_000_000_000; // about 1 900 years of start minutes per doctor

/** Can a slot starting at this instant have an id? (Callers check this first: slotIdFor throws otherwise.) */
export function hasSlotId(start: Date): boolean {
  const minute = Math.round((start.getTime() - EPOCH_MS) / 60_000);
  return Number.isFinite(minute) && minute >= 0 && minute < MINUTES_PER_DOCTOR;
}

export function slotIdFor(doctorNumber: number, start: Date): number {
  const minute = Math.round((start.getTime() - EPOCH_MS) / 60_000);
  if (!hasSlotId(start)) throw new RangeError('Slot start out of range');
  return doctorNumber * MINUTES_PER_DOCTOR + minute;
}

export function slotStartFromId(slotId: number): Date {
  return new Date(EPOCH_MS + (slotId % MINUTES_PER_DOCTOR) * 60_000);
}

export function doctorNumberFromSlotId(slotId: number): number {
  return Math.floor(slotId / MINUTES_PER_DOCTOR);
}
