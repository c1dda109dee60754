import { MESSAGE_STALE_AFTER_MS, streams, type EventData, type MessageKind, type RecordedEvent, type DomainEventOf } from '@telemed/contracts';
import type { CheckpointStore, EventStore, Logger } from '@telemed/platform';
import { handleCommand, readStream, systemContext } from '../decider';
import { consultationDecider } from '../consultations/consultation';
import { appointmentDecider } from '../appointments/appointment';
import { foldsPerEventStore } from '../stream-folds';
import { loadUser } from '../users/load-user';
import { startProcessManager } from '../process-managers/subscriber';
import { appointmentMessageKey, messageDecider, messageIdFor } from './message';

const appointmentsOf = foldsPerEventStore(appointmentDecider);

interface NotificationDeps {
  eventStore: EventStore;
  checkpoints: CheckpointStore;
  logger: Logger;
  clock: () => Date;
  /** Minutes before a confirmed consultation at which reminders are sent (REMINDER_OFFSETS_MINUTES). */
  reminderOffsetsMinutes: readonly number[];
  /** Called after a message was queued that is due now, so the dispatcher runs without waiting for its next turn. */
  onQueued?: (messageId: string) => void;
}

interface QueuedMessage {
  kind: MessageKind;
  recipient_id: string;
  appointment_id: string | null;
  /** The message's idempotency key, when it is not about an appointment (appointmentMessageKey otherwise). */
  key?: string;
  waitlist_offer?: EventData<'MessageQueued'>['waitlist_offer'];
  offset_minutes?: number;
  /** How many times the appointment had moved when this was queued (appointmentMessageKey). */
  move?: number;
  start: string | null;
  due_at: Date;
  doctor_name?: string | null;
}

type Handled = DomainEventOf<
  'AppointmentRequested' | 'AppointmentApproved' | 'AppointmentRejected' | 'AppointmentCancelled' | 'AppointmentRescheduled' | 'AppointmentNoShow' | 'AppointmentTimesProposed' | 'ConsultationJoined' | 'PrescriptionIssued' | 'WaitlistOfferMade'
>;

/** A waitlist offer's message key: one message per slot held for a place (a slot offered again after it passed is another). */
export const waitlistOfferMessageKey = (offer: { doctor_id: string; patient_id: string; slot_id: number; until: string }) =>
  `waitlist:${offer.doctor_id}:${offer.patient_id}:${offer.slot_id}:${offer.until}`;

/**
 * Turns what happens to an appointment into messages for the people it concerns (issue 34): the doctor hears of a new
 * request and of their patient waiting in the lobby; the patient of the answer, a cancellation, the reminders before a
 * confirmed consultation and a prescription ready. Queued only (MessageQueued, keyed by appointment, kind and offset:
 * a replay after a crash queues nothing twice); the dispatcher sends. An event older than MESSAGE_STALE_AFTER_MS when
 * first seen (a first start over a long log) queues no news, only the reminders of consultations still to come.
 */
export async function startNotifications(deps: NotificationDeps) {
  const queue = async (event: RecordedEvent, message: QueuedMessage) => {
    const key = message.key ?? appointmentMessageKey(message.appointment_id ?? '', message.kind, message.offset_minutes ?? null, message.move ?? 0);
    const messageId = messageIdFor(key);
    const result = await handleCommand(
      deps.eventStore,
      streams.message(messageId),
      messageDecider,
      {
        type: 'QueueMessage',
        data: {
          message_id: messageId,
          idempotency_key: key,
          kind: message.kind,
          recipient_id: message.recipient_id,
          appointment_id: message.appointment_id,
          offset_minutes: message.offset_minutes ?? null,
          start: message.start,
          due_at: message.due_at.toISOString(),
          doctor_name: message.doctor_name ?? null,
          ...(message.waitlist_offer ? { waitlist_offer: message.waitlist_offer } : {}),
        },
      },
      systemContext(deps.clock(), event.event_id, event.metadata.correlation_id),
    );
    if (result.events.length && message.due_at.getTime() <= deps.clock().getTime()) deps.onQueued?.(messageId);
  };

  const cancelReminders = async (event: RecordedEvent, appointmentId: string, moves: number) => {
    for (let move = 0; move <= moves; move++) {
      for (const offset of deps.reminderOffsetsMinutes) {
        const messageId = messageIdFor(appointmentMessageKey(appointmentId, 'appointment_reminder', offset, move));
        await handleCommand(deps.eventStore, streams.message(messageId), messageDecider, { type: 'Cancel', data: { reason: 'appointment_closed' } }, systemContext(deps.clock(), event.event_id, event.metadata.correlation_id));
      }
    }
  };

  const doctorName = async (doctorId: string) => {
    const doctor = await loadUser(deps.eventStore, doctorId);
    return doctor.status === 'registered' ? doctor.name : null;
  };

  const handle = async (event: RecordedEvent<Handled>) => {
    const now = deps.clock();
    const fresh = now.getTime() - new Date(event.metadata.occurred_at).getTime() <= MESSAGE_STALE_AFTER_MS;
    if (event.type === 'WaitlistOfferMade') {
      // Worth sending only while the slot is held for them; the dispatcher drops it once the offer no longer stands.
      const { doctor_id, patient_id, slot_id, start, until } = event.data;
      if (new Date(until).getTime() <= now.getTime()) return;
      await queue(event, {
        kind: 'waitlist_offer',
        key: waitlistOfferMessageKey(event.data),
        recipient_id: patient_id,
        appointment_id: null,
        start,
        due_at: now,
        doctor_name: await doctorName(doctor_id),
        waitlist_offer: { doctor_id, slot_id, until },
      });
      return;
    }
    const appointmentId = event.data.appointment_id;
    if (event.type === 'AppointmentRequested') {
      if (!fresh || new Date(event.data.start).getTime() <= now.getTime()) return;
      await queue(event, { kind: 'appointment_requested', recipient_id: event.data.doctor_id, appointment_id: appointmentId, start: event.data.start, due_at: now });
      return;
    }
    const { state } = await appointmentsOf(deps.eventStore).current(streams.appointment(appointmentId));
    if (state.status === 'none') return;
    const { patient_id, doctor_id, start } = state.appointment;
    const ahead = new Date(start).getTime() > now.getTime();
    const move = state.reschedules;
    switch (event.type) {
      case 'AppointmentApproved': {
        if (!ahead) return;
        const doctor_name = await doctorName(doctor_id);
        if (fresh) await queue(event, { kind: 'appointment_approved', recipient_id: patient_id, appointment_id: appointmentId, start, due_at: now, doctor_name, move });
        for (const offset of deps.reminderOffsetsMinutes) {
          const dueAt = new Date(new Date(start).getTime() - offset * 60_000);
          if (dueAt.getTime() <= now.getTime()) continue; // the confirmation itself says when, closer than this reminder
          await queue(event, { kind: 'appointment_reminder', recipient_id: patient_id, appointment_id: appointmentId, offset_minutes: offset, start, due_at: dueAt, doctor_name, move });
        }
        return;
      }
      case 'AppointmentRescheduled':
        // A move that waits for the doctor is a request again: they hear of it as of one. A move that keeps the
        // appointment confirmed needs no message: its reminders follow the new time (the dispatcher defers them).
        if (!fresh || !ahead || state.status !== 'requested') return;
        await queue(event, { kind: 'appointment_requested', recipient_id: doctor_id, appointment_id: appointmentId, start, due_at: now, move });
        return;
      case 'AppointmentRejected':
        // A request the system closed after the patient withdrew their consent: they did that themselves.
        if (!fresh || event.data.cause || !ahead) return;
        await queue(event, { kind: 'appointment_rejected', recipient_id: patient_id, appointment_id: appointmentId, start, due_at: now, doctor_name: await doctorName(doctor_id) });
        return;
      case 'AppointmentCancelled':
        await cancelReminders(event, appointmentId, move);
        if (!fresh || !ahead) return;
        await queue(event, { kind: 'appointment_cancelled', recipient_id: event.data.cancelled_by === 'patient' ? doctor_id : patient_id, appointment_id: appointmentId, start, due_at: now });
        return;
      case 'AppointmentNoShow':
        // The patient hears of their doctor's absence with an apology (and, with payments, their money back).
        if (!fresh || event.data.absent !== 'doctor') return;
        await queue(event, { kind: 'doctor_no_show', recipient_id: patient_id, appointment_id: appointmentId, start, due_at: now, doctor_name: await doctorName(doctor_id) });
        return;
      case 'AppointmentTimesProposed':
        // One message per time the appointment stands at (keyed by its moves): an offer replacing an earlier one before
        // any move is shown on the patient's screens and live, not sent again.
        if (!fresh || !ahead) return;
        await queue(event, { kind: 'times_proposed', recipient_id: patient_id, appointment_id: appointmentId, start, due_at: now, doctor_name: await doctorName(doctor_id), move });
        return;
      case 'ConsultationJoined': {
        if (!fresh || event.data.role !== 'patient') return;
        // A doctor already in the call needs no message (the call's state as it is now, not as it was at the join).
        const { state: call } = await readStream(deps.eventStore, streams.consultation(appointmentId), consultationDecider);
        if (call.status !== 'active' || Object.values(call.participants).some((p) => p.role === 'doctor' && p.present)) return;
        await queue(event, { kind: 'patient_waiting', recipient_id: doctor_id, appointment_id: appointmentId, start, due_at: now });
        return;
      }
      case 'PrescriptionIssued':
        if (!fresh) return;
        await queue(event, { kind: 'prescription_ready', recipient_id: patient_id, appointment_id: appointmentId, start: null, due_at: now, doctor_name: await doctorName(doctor_id) });
        return;
    }
  };

  return startProcessManager({
    name: 'message-notifications',
    eventStore: deps.eventStore,
    checkpoints: deps.checkpoints,
    logger: deps.logger,
    handles: ['AppointmentRequested', 'AppointmentApproved', 'AppointmentRejected', 'AppointmentCancelled', 'AppointmentRescheduled', 'AppointmentNoShow', 'AppointmentTimesProposed', 'ConsultationJoined', 'PrescriptionIssued', 'WaitlistOfferMade'],
    ignores: [
      'wallet', 'accounts', 'sessions', 'privacy', 'institutions', 'schedule', 'blog', 'messaging', 'phone',
      'WaitlistJoined', 'WaitlistLeft', 'WaitlistOfferEnded',
      'AppointmentExpired', 'AppointmentVoided', 'AppointmentConsultationBegun', 'AppointmentCompleted', 'AppointmentHoldReleased', 'AppointmentFollowUpOffered', 'AppointmentFollowUpBooked', 'AppointmentFollowUpWithdrawn',
      'ConsultationStarted', 'ConsultationLeft', 'ConsultationEnded', 'ConsultationAutoEnded', 'ConsultationMessagePosted', 'VideoProviderEventReceived',
      'RecordFileStored', 'MedicalReportUploaded', 'PrescriptionFileUploaded', 'ConsultationNotesSaved', 'MedicineCatalogueImported',
    ],
    handle,
  });
}
