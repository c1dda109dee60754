/**
 * What the closers (an account closed, a doctor unavailable, a consent withdrawn) look up in the read models: a port
 * the read side implements (services/query's sweep lookups) and main.ts wires.
 */

/** How long a handler waits for the appointments read model to reach its event before looking up what is open. */
export const READ_MODEL_WAIT_MS = 10_000;

export interface OpenAppointmentRef {
  appointment_id: string;
  slot_id: number;
  start: string;
}

export interface OpenSlotRef {
  slot_id: number;
  start: string;
}

/**
 * What closing an account looks up in the read models: the person's appointments still to come and a doctor's open
 * slots, through indexed queries a page at a time after the last item of the previous page. Nothing in the past is
 * looked at.
 */
export interface AccountLookups {
  /** Requested or confirmed appointments not ended at `now` in which the person is the patient or the doctor. */
  openAppointmentsOf(
    role: 'patient' | 'doctor',
    userId: string,
    now: Date,
    page: { after: OpenAppointmentRef | null; limit: number },
  ): Promise<OpenAppointmentRef[]>;
  /** The doctor's open slots starting after `now`. */
  openSlotsOf(doctorId: string, now: Date, page: { after: OpenSlotRef | null; limit: number }): Promise<OpenSlotRef[]>;
  /**
   * Waits (up to `timeoutMs`) until the appointments read model has applied the log up to `position`, so an
   * appointment requested just before the event being handled is not missed; false when the time ran out.
   */
  appointmentsReached?(position: number, timeoutMs: number): Promise<boolean>;
}
