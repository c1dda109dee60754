import { API_TEXTS, notFound } from '@telemed/contracts';
import { policies, type AccessClaims, type ApiRouter, type ReadStore } from '@telemed/platform';
import type { AppointmentDoc } from '../projections';
import { CONSULTATIONS, CONSULTATION_MESSAGES, type ConsultationDoc, type ConsultationMessageDoc } from './projection';
import { consultationView } from './view';
import { Subjects, type AccessAudit } from '@telemed/platform';
import type { ConsentDoc } from '../consents/projection';

/** A doctor's repeated reading of a consultation's state (the call page polls it) is one access per this long. */
const CONSULTATION_AUDIT_WINDOW_MS = 15 * 60_000;

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

  api.implement('getConsultation', {
    policy: policies.roles('patient', 'doctor'),
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

  api.implement('listConsultationMessages', {
    policy: policies.roles('patient', 'doctor'),
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
