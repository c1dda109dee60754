import { DEFAULT_TIMEZONE, entryFor, ignoring, toLocalSlotFields, type AppointmentStatusChange, type EventTable, type RecordedEvent } from '@telemed/contracts';

/**
 * What the notifier needs of an appointment, from the appointments read model: events on the bus hold personal
 * fields (notes, reasons) only as ciphertext, so every text a message shows comes from here.
 */
export interface AppointmentFacts {
  patient_id: string;
  doctor_id: string;
  patient_name: string;
  doctor_name: string;
  notes: string;
  rejection_reason: string | null;
  start: string;
  end: string;
}

export interface Delivery {
  user_id: string;
  message: Record<string, unknown>;
  /** Set when the message shows another person's data (the patient's, to the doctor): its reading is audited. */
  shows?: { subject_id: string; resource: 'pending_requests' | 'doctor_appointments'; message_type: string };
}

/**
 * What each event tells an appointment's people: the status it brings (a request, or a change), or nothing. The
 * notifier is sent the appointments' events only; every event type is decided all the same, so a new one is.
 */
const STATUS_OF = {
  AppointmentRequested: 'requested',
  AppointmentApproved: 'approved',
  AppointmentRejected: 'rejected',
  AppointmentCancelled: 'cancelled',
  AppointmentExpired: 'expired',
  // A patient's move waits for the doctor (a request again, at its new time): the doctor's list shows it as one. Moves
  // that keep an appointment confirmed (a doctor accepting moves automatically) will need a status of their own.
  AppointmentRescheduled: 'requested',
  AppointmentNoShow: 'no_show',
  // The doctor offered other times: the patient is asked to choose (their list shows the offer).
  AppointmentTimesProposed: 'times_proposed',
  ...ignoring('accounts', 'sessions', 'privacy', 'institutions', 'schedule', 'consultations', 'records', 'blog', 'messaging', 'phone', 'waitlist', 'wallet'),
  ...ignoring('AppointmentVoided', 'AppointmentConsultationBegun', 'AppointmentCompleted', 'AppointmentHoldReleased', 'AppointmentFollowUpOffered', 'AppointmentFollowUpBooked', 'AppointmentFollowUpWithdrawn'),
} as const satisfies EventTable<AppointmentStatusChange>;

/**
 * The seeds' messages for an appointment event, and who gets them: a new request goes to the doctor; a status
 * change to the patient (and a patient's cancellation or an expired request also to the doctor).
 */
export function messagesFor(event: RecordedEvent, appointment: AppointmentFacts, zone = DEFAULT_TIMEZONE): Delivery[] {
  const appointment_id = (event.data as { appointment_id: string }).appointment_id;
  const local = toLocalSlotFields(appointment.start, appointment.end, zone);
  const common = {
    appointment_id,
    /** When the change was recorded (for clients, and for measuring delivery latency). */
    occurred_at: event.metadata?.occurred_at,
    patient_name: appointment.patient_name,
    doctor_name: appointment.doctor_name,
    slot_date: local.slot_date,
    slot_time: local.start_time,
    start_at: appointment.start,
  };
  const status = entryFor(STATUS_OF, event.type);
  if (!status) return [];
  // A move that leaves the appointment confirmed (the doctor accepts moves, or the patient took a time the doctor
  // offered) is no request: the doctor hears that it moved, and where from.
  if (event.type === 'AppointmentRescheduled' && event.data.confirmed) {
    const message = { type: 'appointment_status_change', event_id: event.event_id, status: 'moved', data: { ...common, moved_from: { start_at: event.data.from_start, by: event.data.rescheduled_by } } };
    return [{ user_id: appointment.doctor_id, message, shows: { subject_id: appointment.patient_id, resource: 'doctor_appointments', message_type: 'appointment_status_change' } }];
  }
  if (status === 'requested') {
    // A move (issue 35) says where the appointment was, so the doctor reads it as moved, not as a new patient.
    const moved = event.type === 'AppointmentRescheduled' ? { moved_from: { start_at: event.data.from_start, by: event.data.rescheduled_by } } : {};
    const data = { ...common, notes: appointment.notes, ...moved, appointment_data: { ...common, notes: appointment.notes, status: 'requested' } };
    return [
      {
        user_id: appointment.doctor_id,
        message: { type: 'appointment_request', event_id: event.event_id, data },
        shows: { subject_id: appointment.patient_id, resource: 'pending_requests', message_type: 'appointment_request' },
      },
    ];
  }
  // From the read model: the event on the bus holds the reason as ciphertext under the patient's key.
  const rejection_reason = event.type === 'AppointmentRejected' ? appointment.rejection_reason : null;
  const cancelled_by = event.type === 'AppointmentCancelled' ? event.data.cancelled_by : null;
  // A request the system closed because its patient withdrew consent: not the doctor's decision, and both are told so.
  const consentWithdrawn = event.type === 'AppointmentRejected' && event.data.cause === 'consent_withdrawn';
  const noShow = event.type === 'AppointmentNoShow' ? event.data : null;
  const message = {
    type: 'appointment_status_change',
    event_id: event.event_id,
    status,
    data: { ...common, rejection_reason, cancelled_by, ...(consentWithdrawn ? { status_reason: 'consent_withdrawn' } : {}), ...(noShow ? { absent: noShow.absent } : {}) },
  };
  const deliveries: Delivery[] = [{ user_id: appointment.patient_id, message }];
  // The doctor hears of changes they did not make: a patient's cancellation, a request left to expire or withdrawn.
  // A no-show the system closed: the doctor did not mark it themselves.
  if (cancelled_by === 'patient' || event.type === 'AppointmentExpired' || consentWithdrawn || noShow?.marked_by === 'system') {
    deliveries.push({
      user_id: appointment.doctor_id,
      message,
      shows: { subject_id: appointment.patient_id, resource: 'doctor_appointments', message_type: 'appointment_status_change' },
    });
  }
  return deliveries;
}
