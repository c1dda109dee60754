import {
  API_TEXTS,
  consultationMessagesQuerySchema,
  consultationMessagesResponseSchema,
  consultationParamsSchema,
  consultationViewSchema,
  instantRange,
  notFound,
  type ConsultationView,
} from '@telemed/contracts';
import { policies, type AccessClaims, type ApiRouter, type ReadStore } from '@telemed/platform';
import type { AppointmentDoc } from '../projections';
import {
  CONSULTATIONS,
  CONSULTATION_MESSAGES,
  OPEN_CONSULTATIONS,
  type ConsultationDoc,
  type ConsultationMessageDoc,
  type OpenConsultationDoc,
} from './projection';
import { Subjects, type AccessAudit } from '@telemed/platform';
import type { ConsentDoc } from '../consents/projection';

const ROLE_DISPLAY = { patient: 'Patient', doctor: 'Healthcare Provider' } as const;
/** A doctor's repeated reading of a consultation's state (the call page polls it) is one access per this long. */
const CONSULTATION_AUDIT_WINDOW_MS = 15 * 60_000;

/** What the consultation's limit looks up: open consultations by their limit (an index over only the open ones). */
export function consultationLookups(readStore: ReadStore) {
  const open = readStore.collection<OpenConsultationDoc>(OPEN_CONSULTATIONS);
  return {
    openConsultationsEndingBefore: async (now: Date, page: { after: { appointment_id: string; ends_at: string } | null; limit: number }) => {
      const after = page.after;
      const cursor = after ? { $or: [{ ends_at: { $gt: after.ends_at } }, { ends_at: after.ends_at, _id: { $gt: after.appointment_id } }] } : {};
      // Limits are stored to the second (`…:00Z`): compare in the same form.
      const docs = await open.find({ ends_at: instantRange({ lte: now }), ...cursor }, { sort: { ends_at: 1, _id: 1 }, limit: page.limit });
      return docs.map((d) => ({ appointment_id: d.appointment_id, ends_at: d.ends_at }));
    },
    nextConsultationEnd: async () => (await open.find({}, { sort: { ends_at: 1, _id: 1 }, limit: 1 }))[0]?.ends_at ?? null,
  };
}

/** The consultation as its participants see it: the state, the server's times, and who is present now. */
export function consultationView(appointment: AppointmentDoc, doc: ConsultationDoc | null, now: Date): ConsultationView {
  const server_time = now.toISOString();
  if (!doc) {
    return {
      appointment_id: appointment.appointment_id,
      status: 'waiting',
      provider: null,
      room: null,
      started_at: null,
      ends_at: null,
      ended_at: null,
      ended_by: null,
      auto_ended: false,
      duration_seconds: 0,
      participants: [],
      server_time,
    };
  }
  // Past its limit the call is over, even before the process manager has recorded it.
  const overdue = doc.status === 'active' && Date.parse(doc.ends_at) <= now.getTime();
  const ended = doc.status === 'ended' || overdue;
  const endedAt = doc.ended_at ?? (overdue ? doc.ends_at : null);
  const until = endedAt ? Date.parse(endedAt) : now.getTime();
  return {
    appointment_id: doc.appointment_id,
    status: ended ? 'ended' : 'active',
    provider: doc.provider,
    room: doc.room,
    started_at: doc.started_at,
    ends_at: doc.ends_at,
    ended_at: endedAt,
    ended_by: doc.ended_by,
    auto_ended: doc.auto_ended || overdue,
    duration_seconds: Math.max(0, Math.floor((until - Date.parse(doc.started_at)) / 1000)),
    participants: doc.participants.map((p) => ({
      user_id: p.user_id,
      name: p.name,
      role: p.role,
      role_display_name: ROLE_DISPLAY[p.role],
      present: p.present && !ended,
      joined_at: p.joined_at,
      left_at: p.left_at ?? (ended ? endedAt : null),
    })),
    server_time,
  };
}

/** GET /consultations/{id} and its chat: for the appointment's patient and doctor only (anyone else: 404). */
export function consultationQueryRoutes(api: ApiRouter, deps: { readStore: ReadStore; clock: () => Date; audit: AccessAudit }) {
  const appointments = deps.readStore.collection<AppointmentDoc>('appointments');
  const consultations = deps.readStore.collection<ConsultationDoc>(CONSULTATIONS);
  const messages = deps.readStore.collection<ConsultationMessageDoc>(CONSULTATION_MESSAGES);
  const consents = deps.readStore.collection<ConsentDoc>('consents');

  /**
   * The chat is the patient's data, like their reports (the notice lists it with them, and an erasure takes it at once):
   * once they have withdrawn every agreement to the notice, their doctor reads only the messages the doctor wrote,
   * except during a consultation the patient keeps (a confirmed appointment stays theirs to keep after a withdrawal),
   * where the chat is how the two talk.
   */
  async function doctorReadsPatientMessages(appointment: AppointmentDoc): Promise<boolean> {
    const live = (await consultations.get(appointment.appointment_id))?.status === 'active';
    return live || (await consents.find({ user_id: appointment.patient_id, withdrawn_at: null }, { limit: 1 })).length > 0;
  }

  async function ownAppointment(id: string, auth: AccessClaims): Promise<AppointmentDoc> {
    const appointment = await appointments.get(id);
    if (!appointment || (appointment.patient_id !== auth.user_id && appointment.doctor_id !== auth.user_id)) throw notFound(API_TEXTS.appointmentNotFound);
    return appointment;
  }

  api.route({
    method: 'get',
    path: '/consultations/:appointment_id',
    summary: "The appointment's consultation: state, the server's start and limit, and who is present (its patient or doctor)",
    tags: ['consultations'],
    policy: policies.roles('patient', 'doctor'),
    params: consultationParamsSchema,
    response: consultationViewSchema,
    errors: [404, 503],
    handler: async ({ params, auth, req }) => {
      const appointment = await ownAppointment(params.appointment_id, auth);
      const doc = await consultations.get(params.appointment_id);
      // It names the patient to the doctor. The call page polls it every few seconds: once a quarter of an hour is on record.
      await deps.audit.record(
        auth,
        req,
        { purpose: 'care', resource: 'consultation', route: 'GET /api/v1/consultations/:appointment_id', subjects: new Subjects().add(appointment.patient_id, appointment.appointment_id) },
        { oncePer: CONSULTATION_AUDIT_WINDOW_MS },
      );
      return { body: consultationView(appointment, doc, deps.clock()) };
    },
  });

  api.route({
    method: 'get',
    path: '/consultations/:appointment_id/messages',
    summary: "The consultation's chat, oldest first (after= a message id for the next page)",
    tags: ['consultations'],
    policy: policies.roles('patient', 'doctor'),
    params: consultationParamsSchema,
    query: consultationMessagesQuerySchema,
    response: consultationMessagesResponseSchema,
    errors: [404],
    handler: async ({ params, query, auth, req }) => {
      const appointment = await ownAppointment(params.appointment_id, auth);
      const after = query.after ? await messages.get(query.after) : null;
      const filter = { appointment_id: params.appointment_id, ...(after && after.appointment_id === params.appointment_id ? { position: { $gt: after.position } } : {}) };
      const ownOnly = auth.user_id === appointment.doctor_id && !(await doctorReadsPatientMessages(appointment));
      const docs = await messages.find(ownOnly ? { ...filter, sender_id: auth.user_id } : filter, { sort: { position: 1 }, limit: query.limit });
      // The chat is the patient's health data: a doctor's reading of it is on record (issue 12).
      await deps.audit.record(auth, req, {
        purpose: 'care',
        resource: 'consultation_messages',
        route: 'GET /api/v1/consultations/:appointment_id/messages',
        subjects: new Subjects().add(appointment.patient_id, appointment.appointment_id),
      });
      return {
        body: { messages: docs.map((m) => ({ message_id: m.message_id, sender_id: m.sender_id, sender_name: m.sender_name, text: m.text, sent_at: m.sent_at })) },
      };
    },
  });
}
