import type { EVENT_FAMILIES, RecordedEvent, ServerMessage, WAITLIST_UPDATE_STATUSES } from '@telemed/contracts';
import { Subjects, type AccessAudit, type ReadCollection } from '@telemed/platform';
import { messagesFor, type AppointmentFacts, type Delivery } from './messages';
import type { RecentIds } from './recent-ids';
import type { SocketSessions } from './sessions';

type WaitlistEventType = (typeof EVENT_FAMILIES)['waitlist'][number];
const WAITLIST_STATUS_AFTER: Record<WaitlistEventType, (typeof WAITLIST_UPDATE_STATUSES)[number]> = {
  WaitlistJoined: 'waiting',
  WaitlistOfferMade: 'offered',
  WaitlistOfferEnded: 'waiting',
  WaitlistLeft: 'closed',
};

/**
 * Turns events from the bus into the seeds' messages on this replica's sockets: appointment events for their patient
 * and doctor, a freed slot for its doctor. The bus delivers at least once: each event is delivered once per replica.
 */
export function createDeliveries(deps: {
  sessions: SocketSessions;
  delivered: RecentIds;
  appointments: ReadCollection<AppointmentFacts & { _id: string }>;
  appointmentView: (stored: AppointmentFacts & { _id: string }) => Promise<AppointmentFacts>;
  audit: Pick<AccessAudit, 'recordFor'>;
  waitForPosition(position: number): Promise<unknown>;
  onDelivered?(count: number): void;
}) {
  const { sessions, delivered } = deps;

  async function onAppointmentEvent(event: RecordedEvent) {
    if (delivered.has(event.event_id)) return;
    const appointmentId = (event.data as { appointment_id?: string }).appointment_id;
    if (!appointmentId) return;
    await deps.waitForPosition(event.position);
    const stored = await deps.appointments.get(appointmentId);
    if (!stored) return;
    // Neither party has a socket on this replica: nobody here to tell, so the people are not read for the message.
    if (!sessions.has(stored.patient_id) && !sessions.has(stored.doctor_id)) {
      delivered.add(event.event_id);
      deps.onDelivered?.(0);
      return;
    }
    const appointment = await deps.appointmentView(stored);
    let count = 0;
    for (const delivery of messagesFor(event, appointment)) {
      if (!sessions.has(delivery.user_id)) continue;
      if (delivery.shows && !(await recorded(event, delivery.user_id, delivery.shows))) continue;
      count += sessions.send(delivery.user_id, delivery.message);
    }
    delivered.add(event.event_id);
    deps.onDelivered?.(count);
  }

  /** A message that shows a doctor another person's data is recorded as a read of it before it is sent. */
  async function recorded(event: RecordedEvent, doctorId: string, shows: NonNullable<Delivery['shows']>): Promise<boolean> {
    const appointmentId = (event.data as { appointment_id: string }).appointment_id;
    try {
      await deps.audit.recordFor({ user_id: doctorId, account_type: 'doctor' }, event.metadata.correlation_id, {
        purpose: 'care',
        resource: shows.resource,
        route: `WS /ws/:user_id ${shows.message_type}`,
        subjects: new Subjects().add(shows.subject_id, appointmentId),
      });
      return true;
    } catch {
      return false; // logged by the audit; the doctor reads it through the audited list instead
    }
  }

  function onSlotReleased(event: RecordedEvent) {
    if (delivered.has(event.event_id)) return;
    const { slot_id, doctor_id } = event.data as { slot_id: number; doctor_id: string };
    const message: ServerMessage = { type: 'schedule_update', event_id: event.event_id, data: { slot_id, status: 'open' } };
    sessions.sendText(doctor_id, JSON.stringify(message));
    delivered.add(event.event_id);
  }

  /**
   * A patient's waitlist place changed: only they are told (nobody on a waitlist hears of anyone else's place), once the
   * read models hold the change, so that the places they read again on the message show it (a push before it, under
   * load, left the page on the place as it was).
   */
  async function onWaitlistEvent(event: RecordedEvent) {
    if (delivered.has(event.event_id)) return;
    const status = WAITLIST_STATUS_AFTER[event.type as WaitlistEventType];
    const { doctor_id, patient_id } = event.data as { doctor_id: string; patient_id: string };
    if (status && sessions.has(patient_id)) {
      await deps.waitForPosition(event.position);
      const message: ServerMessage = { type: 'waitlist_update', event_id: event.event_id, data: { doctor_id, status } };
      sessions.sendText(patient_id, JSON.stringify(message));
    }
    delivered.add(event.event_id);
  }

  return { onAppointmentEvent, onSlotReleased, onWaitlistEvent };
}
