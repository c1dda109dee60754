import { API_TEXTS, MY_APPOINTMENTS_MAX_LIMIT, appointmentStatusSchema, instantRange, myAppointmentsQuerySchema, notFound, z } from '@telemed/contracts';
import { RequestValidationError, Subjects, policies, type AccessAudit, type AccessClaims, type ApiRouter, type ReadCollection, type ReadStore } from '@telemed/platform';
import type { AppointmentDoc, HistoryDoc, UserDoc } from '../projections';
import { timezoneOf } from '../timezone';
import { appointmentCursor, keysetAfter } from './paging';
import { appointmentPeople } from './people';
import { doctorAppointmentView, patientAppointmentView, pendingAppointmentView } from './views';

export interface AppointmentQueryDeps {
  readStore: ReadStore;
  clock: () => Date;
  /**
   * Institution admins and members with the appointments permission read the appointments their institution's console
   * lists (requested while the doctor was its doctor), through the institution it lists them under.
   */
  institutionReadingAppointment: (userId: string, appointment: Pick<AppointmentDoc, '_id'>) => Promise<{ id: string; role: string } | null>;
  /** Records reads of other people's data (PersonalDataAccessed) before they are answered. */
  audit: AccessAudit;
}

type MyAppointmentsQuery = z.output<typeof myAppointmentsQuerySchema>;

/**
 * A page of the caller's appointments as a patient or a doctor: the upcoming or past section, or those of the statuses
 * asked for (not ended, unless include_past), after the cursor.
 */
async function myAppointmentsPage(appointments: ReadCollection<AppointmentDoc>, auth: AccessClaims, query: MyAppointmentsQuery, now: Date): Promise<AppointmentDoc[]> {
  const statuses = (query.status ?? 'requested,confirmed').split(',');
  for (const status of statuses) {
    if (!appointmentStatusSchema.safeParse(status).success) {
      throw new RequestValidationError([{ loc: ['query', 'status'], msg: `Unknown status ${status}`, type: 'enum' }]);
    }
  }
  const ownerField = auth.account_type === 'doctor' ? 'doctor_id' : 'patient_id';
  const owner = { [ownerField]: auth.user_id };
  const limit = query.limit ?? MY_APPOINTMENTS_MAX_LIMIT;
  // Keyset paging: after the cursor's (start, id) in the list's own order; the first page is the seeds' list.
  const cursor = await appointmentCursor(appointments, query.cursor, (doc) => doc[ownerField] === auth.user_id);
  const ascending = { start: 1, _id: 1 } as const;
  // Not ended yet; the bound on start (no appointment lasts a day) lets the (owner, start) index begin near now
  // instead of walking the owner's whole history to skip what ended.
  const notEnded = { end: instantRange({ gt: now }), start: instantRange({ gt: now.getTime() - 86_400_000 }) };
  if (query.section === 'upcoming') {
    const filter = { ...owner, status: { $in: ['requested', 'confirmed'] }, ...notEnded, ...keysetAfter(cursor, 1) };
    return appointments.find(filter, { sort: ascending, limit });
  }
  if (query.section === 'past') {
    const past = { $or: [{ status: { $in: ['rejected', 'cancelled', 'completed', 'no_show'] } }, { end: instantRange({ lte: now }) }] };
    const filter = cursor ? { ...owner, $and: [past, keysetAfter(cursor, -1)] } : { ...owner, ...past };
    return appointments.find(filter, { sort: { start: -1, _id: -1 }, limit });
  }
  const filter: Record<string, unknown> = { ...owner, status: { $in: statuses }, ...keysetAfter(cursor, 1) };
  if (query.include_past !== 'true') Object.assign(filter, notEnded);
  return appointments.find(filter, { sort: ascending, limit });
}

/** The patients the appointments shown name, each with the appointment that names them (whom a doctor's read is of). */
function patientsOf(docs: AppointmentDoc[]): Subjects {
  const subjects = new Subjects();
  for (const doc of docs) subjects.add(doc.patient_id, doc._id);
  return subjects;
}

/** The patient's and the doctor's appointment lists, the doctor's pending requests, and an appointment's history. */
export function appointmentQueryRoutes(api: ApiRouter, deps: AppointmentQueryDeps): void {
  const users = deps.readStore.collection<UserDoc>('users');
  const appointments = deps.readStore.collection<AppointmentDoc>('appointments');
  const history = deps.readStore.collection<HistoryDoc>('appointment_history');
  const withCurrentPeople = appointmentPeople(deps.readStore);

  api.implement('listMyAppointments', {
    policy: policies.roles('patient', 'doctor'),
    handler: async ({ auth, query, req }) => {
      const zone = timezoneOf(query);
      const docs = await withCurrentPeople(await myAppointmentsPage(appointments, auth, query, deps.clock()));
      if (auth.account_type === 'doctor') {
        // The doctor's list shows the patients' names and reasons for the visit: on record, for their care.
        await deps.audit.record(auth, req, { purpose: 'care', resource: 'doctor_appointments', route: 'GET /api/v1/appointments/me', subjects: patientsOf(docs) });
      }
      return {
        body:
          auth.account_type === 'doctor'
            ? docs.map((d) => doctorAppointmentView(d, zone))
            : docs.map((d) => patientAppointmentView(d, zone)),
      };
    },
  });

  api.implement('listPendingAppointments', {
    policy: policies.roles('doctor'),
    handler: async ({ auth, query, req }) => {
      const zone = timezoneOf(query);
      const docs = await withCurrentPeople(
        await appointments.find({ doctor_id: auth.user_id, status: 'requested', start: instantRange({ gt: deps.clock() }) }, { sort: { created_at: 1 } }),
      );
      await deps.audit.record(auth, req, { purpose: 'care', resource: 'pending_requests', route: 'GET /api/v1/appointments/pending', subjects: patientsOf(docs) });
      return { body: docs.map((d) => pendingAppointmentView(d, zone)) };
    },
  });

  /** The actors' names, each looked up once. */
  const actorNames = async (entries: HistoryDoc[]) => {
    const names = new Map<string, string | null>();
    for (const entry of entries) {
      if (!names.has(entry.actor.user_id)) names.set(entry.actor.user_id, (await users.get(entry.actor.user_id))?.name ?? null);
    }
    return names;
  };

  api.implement('getAppointmentHistory', {
    policy: policies.anyUser,
    handler: async ({ auth, params, req }) => {
      const appointment = await appointments.get(params.id);
      if (!appointment) throw notFound(API_TEXTS.appointmentNotFound);
      const participant = appointment.patient_id === auth.user_id || appointment.doctor_id === auth.user_id;
      const institution = participant ? null : await deps.institutionReadingAppointment(auth.user_id, appointment);
      if (!participant && !institution) throw notFound(API_TEXTS.appointmentNotFound);
      // The patient reads their own appointment (not audited); the treating doctor reads it for the patient's care;
      // an institution's member reads the patient's and the doctor's record for its audit.
      const subjects = new Subjects().add(appointment.patient_id, appointment._id);
      if (institution) subjects.add(appointment.doctor_id, appointment._id);
      const recorded = deps.audit.record(auth, req, {
        purpose: institution ? 'institution_audit' : 'care',
        resource: 'appointment_history',
        route: 'GET /api/v1/appointments/:id/history',
        institution,
        subjects,
      });
      // Written while the history is read; nothing is answered until both are done.
      const [all] = await Promise.all([history.find({ appointment_id: params.id }, { sort: { position: 1 } }), recorded]);
      // The patient reads final notes only, never drafts (issue 14): nor when the doctor saved one.
      const asPatient = appointment.patient_id === auth.user_id && appointment.doctor_id !== auth.user_id;
      const entries = asPatient ? all.filter((e) => !(e.type === 'ConsultationNotesSaved' && (e.data as { is_draft?: boolean }).is_draft === true)) : all;
      const names = await actorNames(entries);
      return {
        body: {
          appointment_id: params.id,
          events: entries.map((e) => ({
            position: e.position,
            event_id: e.event_id,
            type: e.type,
            occurred_at: e.occurred_at,
            actor: { ...e.actor, name: names.get(e.actor.user_id) ?? null },
            data: e.data,
          })),
        },
      };
    },
  });
}
