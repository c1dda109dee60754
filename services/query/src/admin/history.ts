import { DateTime } from 'luxon';
import type { HistoryDoc } from '../projections';
import { csvOf } from '@telemed/contracts/admin';

export interface TimelineEntry {
  id: string;
  position: number;
  event_id: string;
  type: string;
  occurred_at: string;
  actor: { user_id: string; role: string; name: string | null };
  correlation_id: string | null;
  description: string;
}

/** 'Tue 25 Nov, 10:30' in the reader's zone. */
export function shortWhen(iso: string, zone: string): string {
  return DateTime.fromISO(iso, { zone: 'utc' }).setZone(zone).toFormat('ccc d LLL, HH:mm');
}

const doctorName = (name: string | null) => (name ? (/^dr\.?\s/i.test(name) ? name : `Dr. ${name}`) : 'the doctor');
const personName = (name: string | null, role: string) => name ?? (role === 'system' ? 'the system' : `a ${role}`);

export interface DescribeOptions {
  zone: string;
  /** May the reader see the patient's reasons (the request's notes, a rejection's or cancellation's reason)? */
  notesReadable: boolean;
  /** The appointment's doctor, so a participant named in the event (not its actor) is titled as one. */
  doctorId?: string;
  /** Names of the people the events name besides their actors (who joined or left a call). */
  nameOf?: (userId: string) => string | null;
}

/**
 * One readable line per event: 'Requested by Meera Iyer for Tue 25 Nov, 10:30 — reason: …', 'Approved by Dr. Ananya
 * Sharma', 'Consultation started', 'Prescription issued by Dr. Ananya Sharma'. The reason (the patient's notes) only
 * for a reader who may read them; a clinical record only as the fact that it was made, never what it says.
 */
export function describe(entry: HistoryDoc, actorName: string | null, options: DescribeOptions): string {
  const data = entry.data;
  const by = personName(actorName, entry.actor.role);
  const byTitled = entry.actor.role === 'doctor' ? doctorName(actorName) : by;
  const text = (key: string) => (typeof data[key] === 'string' && data[key] !== '' ? (data[key] as string) : null);
  /** The participant the event is about (`user_id`), titled as the doctor when they are the appointment's. */
  const participant = () => {
    const id = text('user_id');
    if (!id || id === entry.actor.user_id) return byTitled;
    const name = options.nameOf?.(id) ?? null;
    const isDoctor = id === options.doctorId || data.role === 'doctor';
    return isDoctor ? doctorName(name) : (name ?? (data.role === 'patient' ? 'the patient' : 'a participant'));
  };
  switch (entry.type) {
    case 'SlotReserved':
      return 'Slot held for the request';
    case 'SlotReleased':
      return data.reason === 'rescheduled' ? 'Slot released: the appointment moved' : 'Slot released';
    case 'AppointmentRequested': {
      const when = text('start') ? ` for ${shortWhen(text('start')!, options.zone)}` : '';
      const reason = options.notesReadable && text('notes') ? ` — reason: ${text('notes')}` : '';
      return `Requested by ${by}${when}${reason}`;
    }
    case 'AppointmentApproved':
      return `Approved by ${entry.actor.role === 'doctor' ? doctorName(actorName) : by}`;
    case 'AppointmentRejected': {
      const reason = options.notesReadable && text('reason') ? ` — reason: ${text('reason')}` : '';
      return `Rejected by ${entry.actor.role === 'doctor' ? doctorName(actorName) : by}${reason}`;
    }
    case 'AppointmentCancelled': {
      if (data.cause === 'proposal_declined') return `Cancelled: ${by} declined the other times offered`;
      if (data.cause === 'proposal_unanswered') return 'Cancelled by the system: the other times offered were not answered in time';
      const reason = options.notesReadable && text('reason') ? ` — reason: ${text('reason')}` : '';
      return `Cancelled by ${entry.actor.role === 'doctor' ? doctorName(actorName) : by}${reason}`;
    }
    case 'AppointmentRescheduled': {
      const from = text('from_start') ? ` from ${shortWhen(text('from_start')!, options.zone)}` : '';
      const to = text('start') ? ` to ${shortWhen(text('start')!, options.zone)}` : '';
      return `Moved by ${by}${from}${to}${data.needs_approval === true ? ' (waiting for the doctor to approve it again)' : ''}`;
    }
    case 'AppointmentTimesProposed': {
      const slots = Array.isArray(data.slots) ? (data.slots as Array<{ start?: unknown }>) : [];
      const times = slots.flatMap((slot) => (typeof slot.start === 'string' ? [shortWhen(slot.start, options.zone)] : []));
      return `Other times offered by ${byTitled}${times.length ? `: ${times.join('; ')}` : ''}`;
    }
    case 'AppointmentNoShow': {
      const what = data.absent === 'both' ? 'neither the patient nor the doctor joined' : `${data.absent === 'doctor' ? 'the doctor' : 'the patient'} did not join`;
      return `${data.marked_by === 'doctor' ? `Marked by ${by}` : 'Closed by the system'}: no-show — ${what}`;
    }
    case 'AppointmentFollowUpOffered':
      return `Follow-up offered by ${byTitled}: until ${text('until') ? shortWhen(text('until')!, options.zone) : '?'}, ${data.fee === 0 ? 'free' : `fee ${String(data.fee)}`}`;
    case 'AppointmentFollowUpBooked':
      return `Follow-up booked by ${by}`;
    case 'AppointmentExpired':
      return 'Expired: nobody answered the request before its start';
    case 'AppointmentCompleted':
      return data.auto_ended === true ? 'Completed (the consultation reached its time limit)' : 'Completed';
    case 'ConsultationStarted':
      return 'Consultation started';
    case 'ConsultationJoined':
      return `${participant()} joined the consultation${data.replaced_connection_id ? ' (again, replacing their earlier connection)' : ''}`;
    case 'ConsultationLeft':
      if (data.reason === 'disconnected') return `${participant()} left the consultation (their connection dropped and did not come back)`;
      if (data.reason === 'provider_reported') return `${participant()} left the consultation (reported by the video service)`;
      return `${participant()} left the consultation`;
    case 'ConsultationEnded':
      return `Consultation ended by ${byTitled}`;
    case 'ConsultationAutoEnded':
      return 'Consultation ended automatically at its time limit';
    case 'ConsultationNotesSaved':
      return data.is_draft === true ? `Draft consultation notes saved by ${byTitled}` : `Consultation notes saved by ${byTitled} (final: the patient may read them)`;
    case 'PrescriptionIssued':
      return `Prescription issued by ${byTitled}`;
    case 'PrescriptionFileUploaded':
      return `Prescription file uploaded by ${byTitled}`;
    case 'MedicalReportUploaded':
      return `Report attached by ${byTitled}`;
    default:
      return entry.type.replace(/([a-z])([A-Z])/g, '$1 $2');
  }
}

export const HISTORY_CSV_COLUMNS = ['time', 'actor', 'role', 'event', 'description', 'correlation_id', 'event_id'] as const;

export function historyCsv(entries: TimelineEntry[]): string {
  return csvOf(HISTORY_CSV_COLUMNS, entries.map((e) => [e.occurred_at, e.actor.name, e.actor.role, e.type, e.description, e.correlation_id, e.event_id]));
}
