import {
  API_TEXTS,
  appointmentHistorySchema,
  appointmentStatusSchema,
  availableSlotsResponseSchema,
  doctorAppointmentSchema,
  doctorListQuerySchema,
  doctorSchema,
  doctorWithSlotsSchema,
  meResponseSchema,
  myAppointmentsQuerySchema,
  notFound,
  patientAppointmentSchema,
  pendingAppointmentSchema,
  scheduleSlotSchema,
  timezoneQuerySchema,
  z,
  MY_APPOINTMENTS_MAX_LIMIT,
  slotFactsSchema,
  slotParamsSchema,
  publicDoctorParamsSchema,
  publicDoctorProfileSchema,
  publicDoctorQuerySchema,
  availableSlotsQuerySchema,
  SLOT_MINUTES,
  utcIso,
  instantRange,
  isAtOrBefore,
} from '@telemed/contracts';
import { DateTime } from 'luxon';
import { JsonText, RequestValidationError, policies, type ApiRouter, type HandlerResult, type ReadStore } from '@telemed/platform';
import type { AppointmentDoc, DoctorDoc, HistoryDoc, SlotDoc, SubscriptionDoc, UserDoc } from './projections';
import { slotLookups } from './schedule/slot-lookups';
import { OpenSlots } from './schedule/open-slots';
import { bookableDoctors } from './users/bookable-doctors';
import { appointmentCursor, keysetAfter } from './appointments/paging';
import { appointmentPeople } from './appointments/people';
import { Subjects, type AccessAudit } from '@telemed/platform';
import {
  doctorAppointmentView,
  doctorFields,
  doctorView,
  patientAppointmentView,
  pendingAppointmentView,
  slotView,
  timezoneOf,
} from './appointments/views';

export interface QueryDeps {
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

type DoctorWithSlots = z.infer<typeof doctorWithSlotsSchema>;

export function queryRoutes(api: ApiRouter, deps: QueryDeps): void {
  const users = deps.readStore.collection<UserDoc>('users');
  const doctors = deps.readStore.collection<DoctorDoc>('doctors');
  const subscriptions = deps.readStore.collection<SubscriptionDoc>('patient_doctors');
  const slots = deps.readStore.collection<SlotDoc>('slots');
  const slotsOf = slotLookups(deps.readStore);
  const appointments = deps.readStore.collection<AppointmentDoc>('appointments');
  const history = deps.readStore.collection<HistoryDoc>('appointment_history');
  const withCurrentPeople = appointmentPeople(deps.readStore);

  const openSlots = new OpenSlots(deps.readStore, deps.clock);
  // A doctor who takes no bookings (inactive, or deactivated by an institution) shows no slot to book anywhere.
  const acceptsBookings = bookableDoctors(deps.readStore);

  api.route({
    method: 'get',
    path: '/users/me',
    summary: 'My profile',
    tags: ['users'],
    policy: policies.anyUser,
    response: meResponseSchema,
    errors: [404],
    handler: async ({ auth }) => {
      const user = await users.get(auth.user_id);
      if (!user) throw notFound(API_TEXTS.userNotFound);
      const doctor = user.account_type === 'doctor' ? await doctors.get(auth.user_id) : null;
      return {
        body: {
          id: user._id,
          user_id: user._id,
          name: user.name,
          email: user.email,
          phone_number: user.phone_number,
          account_type: user.account_type,
          doctor: doctor ? doctorFields(doctor) : null,
        },
      };
    },
  });

  api.route({
    method: 'get',
    path: '/doctors/',
    summary: 'List doctors',
    tags: ['doctors'],
    policy: policies.anyUser,
    query: doctorListQuerySchema,
    response: z.array(doctorSchema),
    handler: async ({ query }) => {
      // An erased doctor is in no list (their public page answers 404 too).
      const docs = await doctors.find({ doctor_number: { $gt: 0 }, erased_at: { $exists: false } }, { sort: { name: 1 }, skip: query.skip, limit: query.limit });
      // A page of doctors at most DOCTOR_LIST_MAX_LIMIT long, each a few lookups by id (their account, their staffs).
      return { body: await Promise.all(docs.map(async (doc) => doctorView(doc, await acceptsBookings(doc._id)))) };
    },
  });

  api.route({
    method: 'get',
    path: '/doctors/me',
    summary: "A patient's doctors with their upcoming slots (a doctor gets their own profile)",
    tags: ['doctors'],
    policy: policies.roles('patient', 'doctor'),
    query: timezoneQuerySchema,
    response: z.union([z.array(doctorWithSlotsSchema), doctorWithSlotsSchema]),
    handler: async ({ auth, query }): Promise<HandlerResult<DoctorWithSlots | DoctorWithSlots[]>> => {
      const zone = timezoneOf(query);
      const withSlots = async (doc: DoctorDoc, own = false) => {
        const accepting = await acceptsBookings(doc._id);
        return {
          ...doctorView(doc, accepting),
          availableSlots: own || accepting ? (await openSlots.list(doc._id, deps.clock().toISOString())).map((s) => slotView(s, zone, true)) : [],
        };
      };
      if (auth.account_type === 'doctor') {
        const self = await doctors.get(auth.user_id);
        if (!self) throw notFound(API_TEXTS.doctorNotFound);
        return { body: await withSlots(self, true) };
      }
      const mine = await subscriptions.find({ patient_id: auth.user_id }, { sort: { subscribed_at: 1 } });
      const docs = (await Promise.all(mine.map((s) => doctors.get(s.doctor_id)))).filter((d): d is DoctorDoc => d !== null);
      return { body: await Promise.all(docs.map((doc) => withSlots(doc))) };
    },
  });

  api.route({
    method: 'get',
    path: '/doctors/:doctor_id/available-slots',
    summary: "A doctor's upcoming available slots, sorted by start: all of them, or those of a window of local days (from, days)",
    tags: ['doctors'],
    policy: policies.anyUser,
    params: z.object({ doctor_id: z.string().min(1).max(64) }),
    query: availableSlotsQuerySchema,
    response: availableSlotsResponseSchema,
    errors: [404],
    handler: async ({ params, query }) => {
      const zone = timezoneOf(query);
      if (!(await doctors.get(params.doctor_id))) throw notFound(API_TEXTS.doctorNotFound);
      if (!(await acceptsBookings(params.doctor_id))) return { body: new JsonText(Buffer.from('{"slots":[]}')) };
      const now = deps.clock();
      // Rendered once per doctor, zone and change of the doctor's slots (see OpenSlots), then sent as it is.
      if (query.from === undefined && query.days === undefined) return { body: await openSlots.availableSlotsBody(params.doctor_id, zone, now.toISOString()) };
      const first = query.from ? DateTime.fromISO(query.from, { zone }) : DateTime.fromJSDate(now, { zone }).startOf('day');
      const after = Math.max(now.getTime(), first.toMillis() - 1000);
      const before = utcIso(first.plus({ days: query.days ?? 7 }));
      return { body: await openSlots.availableSlotsBody(params.doctor_id, zone, new Date(after).toISOString(), before) };
    },
  });

  api.route({
    method: 'get',
    path: '/public/doctors/:doctor_id',
    summary: "A doctor's public page: profile and open slots of the next days (no sign-in; no contact details)",
    tags: ['public'],
    policy: policies.public,
    params: publicDoctorParamsSchema,
    query: publicDoctorQuerySchema,
    response: publicDoctorProfileSchema,
    errors: [404],
    handler: async ({ params, query }) => {
      const zone = timezoneOf(query);
      const doctor = await doctors.get(params.doctor_id);
      // Only a doctor with a published profile and an active account has a public page.
      const user = doctor && doctor.doctor_number > 0 ? await users.get(doctor._id) : null;
      if (!doctor || !user?.active) throw notFound(API_TEXTS.doctorNotFound);
      const now = deps.clock();
      const until = new Date(now.getTime() + query.days * 86_400_000).toISOString();
      const accepting = await acceptsBookings(doctor._id);
      const open = accepting ? await openSlots.list(doctor._id, now.toISOString(), until) : [];
      return {
        body: {
          doctor_id: doctor._id,
          name: doctor.name,
          ...doctorFields(doctor),
          slots: open.map((s) => slotView(s, zone, true)),
          days: query.days,
          accepting_bookings: accepting,
        },
      };
    },
  });

  api.route({
    method: 'get',
    path: '/slots/:slot_id',
    summary: 'One slot with its doctor, time and fee, and whether the caller can still request it',
    tags: ['doctors'],
    policy: policies.anyUser,
    params: slotParamsSchema,
    query: timezoneQuerySchema,
    response: slotFactsSchema,
    errors: [404],
    handler: async ({ params, query, auth }) => {
      const slot = await slots.get(String(params.slot_id));
      const doctor = slot ? await doctors.get(slot.doctor_id) : null;
      if (!slot || !doctor) throw notFound(API_TEXTS.slotNotFound);
      const started = isAtOrBefore(slot.start, deps.clock());
      const availability =
        slot.status === 'reserved'
          ? slot.patient_id === auth.user_id
            ? 'requested_by_you'
            : 'taken'
          : started
            ? 'past'
            : slot.status !== 'open'
              ? 'withdrawn'
              : (await acceptsBookings(doctor._id))
                ? 'open'
                : 'not_accepting';
      const { slot_id, slot_date, start_time, end_time, start_at, end_at } = slotView(slot, timezoneOf(query), availability === 'open');
      return {
        body: {
          slot_id,
          slot_date,
          start_time,
          end_time,
          start_at,
          end_at,
          doctor: {
            doctor_id: doctor._id,
            name: doctor.name,
            specialty: doctor.specialty,
            qualification: doctor.qualification,
            consultation_fee: doctor.consultation_fee,
          },
          availability,
        },
      };
    },
  });

  api.route({
    method: 'get',
    path: '/schedule-v2/get_appointments_v2/',
    summary: "The doctor's future slots: available ones and booked ones",
    tags: ['schedule'],
    policy: policies.roles('doctor'),
    query: timezoneQuerySchema,
    response: z.array(scheduleSlotSchema),
    handler: async ({ auth, query }) => {
      const zone = timezoneOf(query);
      const now = deps.clock();
      // Slots that have not ended: those that started less than a slot's length ago, and later ones.
      const started = new Date(now.getTime() - SLOT_MINUTES * 60_000).toISOString();
      const docs = (await slotsOf.inRange(auth.user_id, { after: started, statuses: ['open', 'reserved'] })).filter((s) => !isAtOrBefore(s.end, now));
      return {
        body: docs.map((s) => ({
          ...slotView(s, zone, s.status === 'open'),
          is_booked: s.status === 'reserved',
          status: s.status === 'reserved' ? ('booked' as const) : ('available' as const),
        })),
      };
    },
  });

  api.route({
    method: 'get',
    path: '/appointments/me',
    summary: "My appointments: a patient's list, or a doctor's (upcoming requested and confirmed by default)",
    tags: ['appointments'],
    policy: policies.roles('patient', 'doctor'),
    query: myAppointmentsQuerySchema,
    response: z.union([z.array(patientAppointmentSchema), z.array(doctorAppointmentSchema)]),
    errors: [503],
    handler: async ({ auth, query, req }) => {
      const zone = timezoneOf(query);
      const statuses = (query.status ?? 'requested,confirmed').split(',');
      for (const status of statuses) {
        if (!appointmentStatusSchema.safeParse(status).success) {
          throw new RequestValidationError([{ loc: ['query', 'status'], msg: `Unknown status ${status}`, type: 'enum' }]);
        }
      }
      const ownerField = auth.account_type === 'doctor' ? 'doctor_id' : 'patient_id';
      const owner = { [ownerField]: auth.user_id };
      const now = deps.clock();
      const limit = query.limit ?? MY_APPOINTMENTS_MAX_LIMIT;
      // Keyset paging: after the cursor's (start, id) in the list's own order; the first page is the seeds' list.
      const cursor = await appointmentCursor(appointments, query.cursor, (doc) => doc[ownerField] === auth.user_id);
      const ascending = { start: 1, _id: 1 } as const;
      // Not ended yet; the bound on start (no appointment lasts a day) lets the (owner, start) index begin near now
      // instead of walking the owner's whole history to skip what ended.
      const notEnded = { end: instantRange({ gt: now }), start: instantRange({ gt: now.getTime() - 86_400_000 }) };
      let docs: AppointmentDoc[];
      if (query.section === 'upcoming') {
        const filter = { ...owner, status: { $in: ['requested', 'confirmed'] }, ...notEnded, ...keysetAfter(cursor, 1) };
        docs = await appointments.find(filter, { sort: ascending, limit });
      } else if (query.section === 'past') {
        const past = { $or: [{ status: { $in: ['rejected', 'cancelled', 'completed'] } }, { end: instantRange({ lte: now }) }] };
        const filter = cursor ? { ...owner, $and: [past, keysetAfter(cursor, -1)] } : { ...owner, ...past };
        docs = await appointments.find(filter, { sort: { start: -1, _id: -1 }, limit });
      } else {
        const filter: Record<string, unknown> = { ...owner, status: { $in: statuses }, ...keysetAfter(cursor, 1) };
        if (query.include_past !== 'true') Object.assign(filter, notEnded);
        docs = await appointments.find(filter, { sort: ascending, limit });
      }
      docs = await withCurrentPeople(docs);
      if (auth.account_type === 'doctor') {
        // The doctor's list shows the patients' names and reasons for the visit: on record, for their care.
        const subjects = new Subjects();
        for (const doc of docs) subjects.add(doc.patient_id, doc._id);
        await deps.audit.record(auth, req, { purpose: 'care', resource: 'doctor_appointments', route: 'GET /api/v1/appointments/me', subjects });
      }
      return {
        body:
          auth.account_type === 'doctor'
            ? docs.map((d) => doctorAppointmentView(d, zone))
            : docs.map((d) => patientAppointmentView(d, zone)),
      };
    },
  });

  api.route({
    method: 'get',
    path: '/appointments/pending',
    summary: "The doctor's requests awaiting approval, oldest first",
    tags: ['appointments'],
    policy: policies.roles('doctor'),
    query: timezoneQuerySchema,
    response: z.array(pendingAppointmentSchema),
    errors: [503],
    handler: async ({ auth, query, req }) => {
      const zone = timezoneOf(query);
      const docs = await withCurrentPeople(
        await appointments.find({ doctor_id: auth.user_id, status: 'requested', start: instantRange({ gt: deps.clock() }) }, { sort: { created_at: 1 } }),
      );
      const subjects = new Subjects();
      for (const doc of docs) subjects.add(doc.patient_id, doc._id);
      await deps.audit.record(auth, req, { purpose: 'care', resource: 'pending_requests', route: 'GET /api/v1/appointments/pending', subjects });
      return { body: docs.map((d) => pendingAppointmentView(d, zone)) };
    },
  });

  api.route({
    method: 'get',
    path: '/appointments/:id/history',
    summary: "Every event of an appointment with who did it and when (its participants, and its doctor's institution)",
    tags: ['appointments'],
    policy: policies.anyUser,
    params: z.object({ id: z.string().min(1).max(64) }),
    response: appointmentHistorySchema,
    errors: [404, 503],
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
      const names = new Map<string, string | null>();
      for (const entry of entries) {
        if (!names.has(entry.actor.user_id)) names.set(entry.actor.user_id, (await users.get(entry.actor.user_id))?.name ?? null);
      }
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
