import { API_TEXTS, type MessageChannel } from '@telemed/contracts';
import { HttpError, Subjects, policies, type AccessAudit, type ApiRouter, type Filter, type ReadStore } from '@telemed/platform';
import type { AppointmentDoc, UserDoc } from '../projections';
import { COUNTED, contentRange } from '../admin/ra';
import { MESSAGES, type MessageDoc } from './projection';
import { CONTACTS, emptyContact, type ContactDoc } from './contacts-projection';

const entry = (doc: MessageDoc) => ({
  id: doc._id,
  kind: doc.kind,
  recipient_id: doc.recipient_id,
  to_masked: doc.to_masked,
  channel: doc.channel,
  status: doc.status,
  attempts: doc.attempts,
  last_error: doc.last_error,
  appointment_id: doc.appointment_id,
  due_at: doc.due_at,
  updated_at: doc.updated_at,
});

export interface MessagingQueryDeps {
  readStore: ReadStore;
  audit: AccessAudit;
  /** The institution through which a member may read this appointment (its doctor's, with the right to read appointments). */
  institutionReadingAppointment: (userId: string, appointment: Pick<AppointmentDoc, '_id'>) => Promise<{ id: string; role: string } | null>;
  /** The channels this deployment sends on (configured, or all three where the development outbox stands in). */
  channels: readonly MessageChannel[];
}

/**
 * The console's message log (issue 34): what was sent to whom (masked), on which channel, and how it went. Operators
 * read all of it; a clinic's member reads the messages of one appointment its doctor had (its history's), each such
 * read on the patient's and the doctor's access log.
 */
export function messagingQueryRoutes(api: ApiRouter, deps: MessagingQueryDeps): void {
  const messages = deps.readStore.collection<MessageDoc>(MESSAGES);
  const appointments = deps.readStore.collection<AppointmentDoc>('appointments');

  /** A member of the appointment's institution, reading its messages for the institution's audit; else 403. */
  const clinicReading = async (auth: Parameters<AccessAudit['record']>[0], req: Parameters<AccessAudit['record']>[1], appointmentId: string | undefined) => {
    const appointment = appointmentId ? await appointments.get(appointmentId) : null;
    const institution = appointment ? await deps.institutionReadingAppointment(auth.user_id, appointment) : null;
    if (!appointment || !institution) throw new HttpError(403, API_TEXTS.forbiddenRole);
    await deps.audit.record(auth, req, {
      purpose: 'institution_audit',
      resource: 'appointment_history',
      route: 'GET /api/v1/admin/messages',
      institution,
      subjects: new Subjects().add(appointment.patient_id, appointment._id).add(appointment.doctor_id, appointment._id),
    });
  };

  // A person's own channels, zone and verified number (their Profile's Messages section).
  api.implement('getMessagingPreferences', {
    policy: policies.anyUser,
    handler: async ({ auth }) => {
      const [contact, user] = await Promise.all([deps.readStore.collection<ContactDoc>(CONTACTS).get(auth.user_id), deps.readStore.collection<UserDoc>('users').get(auth.user_id)]);
      const { channels, time_zone, verified_phone } = contact ?? emptyContact(auth.user_id, '');
      return { body: { channels, time_zone, verified_phone, has_email: Boolean(user?.email), available: [...deps.channels] } };
    },
  });

  api.implement('listMessages', {
    policy: policies.anyUser,
    handler: async ({ query, auth, req }) => {
      if (auth.account_type !== 'admin') await clinicReading(auth, req, query.filter.appointment_id);
      const filter: Filter = {};
      if (query.filter.id) filter._id = { $in: query.filter.id };
      for (const field of ['status', 'channel', 'kind', 'appointment_id'] as const) if (query.filter[field]) filter[field] = query.filter[field];
      const field = query.sort.field === 'id' ? '_id' : query.sort.field;
      const [docs, total] = await Promise.all([
        messages.find(filter, { sort: { [field]: query.sort.order, _id: query.sort.order }, skip: query.start, limit: query.end - query.start + 1 }),
        messages.count(filter, COUNTED),
      ]);
      return { body: docs.map(entry), headers: contentRange('messages', query.start, docs.length, total) };
    },
  });
}
