import { DateTime } from 'luxon';
import type { HistoryDoc } from '../projections';

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

/**
 * One readable line per event: 'Requested by Meera Iyer for Tue 25 Nov, 10:30 — reason: …', 'Approved by Dr. Ananya
 * Sharma', 'Consultation started'. The reason (the patient's notes) only for a reader who may read them.
 */
export function describe(entry: HistoryDoc, actorName: string | null, options: { zone: string; notesReadable: boolean }): string {
  const data = entry.data;
  const by = personName(actorName, entry.actor.role);
  const text = (key: string) => (typeof data[key] === 'string' && data[key] !== '' ? (data[key] as string) : null);
  switch (entry.type) {
    case 'SlotReserved':
      return 'Slot held for the request';
    case 'SlotReleased':
      return 'Slot released';
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
      const reason = options.notesReadable && text('reason') ? ` — reason: ${text('reason')}` : '';
      return `Cancelled by ${entry.actor.role === 'doctor' ? doctorName(actorName) : by}${reason}`;
    }
    case 'AppointmentExpired':
      return 'Expired: nobody answered the request before its start';
    case 'AppointmentCompleted':
      return data.auto_ended === true ? 'Completed (the consultation reached its time limit)' : 'Completed';
    case 'ConsultationStarted':
      return 'Consultation started';
    case 'ConsultationJoined':
      return `${entry.actor.role === 'doctor' ? doctorName(actorName) : by} joined the consultation`;
    case 'ConsultationLeft':
      return `${entry.actor.role === 'doctor' ? doctorName(actorName) : by} left the consultation`;
    case 'ConsultationEnded':
      return `Consultation ended by ${entry.actor.role === 'doctor' ? doctorName(actorName) : by}`;
    case 'ConsultationAutoEnded':
      return 'Consultation ended at its time limit';
    default:
      return entry.type.replace(/([a-z])([A-Z])/g, '$1 $2');
  }
}

/** A CSV cell: quoted, quotes doubled, and a leading = + - @ (a spreadsheet formula) defused with an apostrophe. */
function cell(value: string | number | null): string {
  let text = value === null ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

export const HISTORY_CSV_COLUMNS = ['time', 'actor', 'role', 'event', 'description', 'correlation_id', 'event_id'] as const;

export function historyCsv(entries: TimelineEntry[]): string {
  const rows = entries.map((e) => [e.occurred_at, e.actor.name, e.actor.role, e.type, e.description, e.correlation_id, e.event_id].map(cell).join(','));
  return [HISTORY_CSV_COLUMNS.join(','), ...rows].join('\r\n') + '\r\n';
}
