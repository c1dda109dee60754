import {
  DOCTOR_ROLES,
  INSTITUTION_TEXTS,
  adminStatusSchema,
  institutionAppointmentSchema,
  institutionInvitationSchema,
  institutionSchema,
  institutionWithDoctorsSchema,
  membershipAllows,
  notFound,
  staffEntrySchema,
  toLocalSlotFields,
  z,
  DEFAULT_TIMEZONE,
  INSTITUTION_APPOINTMENTS_MAX_LIMIT,
  pageCursorSchema,
  type InstitutionMembership,
  type Permission,
  type AccessPurpose,
} from '@telemed/contracts';
import { policies, type AccessClaims, type ApiRouter, type InstitutionResolver, type ReadStore } from '@telemed/platform';
import { INSTITUTION_APPOINTMENTS, institutionAppointmentId, readingInstitution, type AppointmentDoc, type DoctorDoc, type InstitutionAppointmentDoc, type InstitutionDoc, type InvitationDoc, type StaffDoc } from '../projections';
import { timezoneOf } from '../timezone';
import { appointmentCursor, keysetAfter } from '../appointments/paging';
import { Subjects, type AccessAudit } from '@telemed/platform';
import { appointmentPeople } from '../appointments/people';

/**
 * Why the caller reads an institution's people: as its member (in their role there), or as a platform operator.
 * The route's policy has already let them in.
 */
async function institutionPurpose(
  resolve: InstitutionResolver,
  institutionId: string,
  auth: AccessClaims,
  asMember: AccessPurpose,
): Promise<{ purpose: AccessPurpose; institution: { id: string; role: string | null } }> {
  const membership = (await resolve(institutionId, auth.user_id))?.membership ?? null;
  if (membership) return { purpose: asMember, institution: { id: institutionId, role: membership.role } };
  return { purpose: 'platform_administration', institution: { id: institutionId, role: null } };
}

/** An institution as every API shows it (the seeds' screens and the console alike). */
export const institutionView = (doc: InstitutionDoc) => ({
  id: doc._id,
  name: doc.name,
  slug: doc.slug,
  address: doc.address,
  phone: doc.phone,
  email: doc.email,
  is_active: doc.is_active,
  hours_of_operation: doc.hours_of_operation,
  role_permissions: doc.role_permissions,
  created_at: doc.created_at,
});

/** What the screens show as Active: a member who is not a deactivated doctor. */
export const shownActive = (doc: StaffDoc) => doc.is_active && doc.deactivated !== true;

const staffView = (doc: StaffDoc) => ({
  id: doc._id,
  user_id: doc.user_id,
  user: { name: doc.name },
  name: doc.name,
  email: doc.email,
  phone: doc.phone,
  account_type: doc.role,
  role_title: doc.role_title,
  department: doc.department,
  specialization: doc.specialization,
  is_active: shownActive(doc),
  is_institution_admin: doc.is_institution_admin,
});

const invitationView = (doc: InvitationDoc, institution: InstitutionDoc) => ({
  id: doc._id,
  institution: { id: institution._id, name: institution.name, slug: institution.slug },
  user_id: doc.user_id,
  name: doc.name,
  email: doc.email,
  account_type: doc.role,
  role_title: doc.role_title,
  status: doc.status,
  invited_at: doc.invited_at,
});

/** Institution lookups shared by the routes and the access policies. */
export function institutionLookups(readStore: ReadStore) {
  const institutions = readStore.collection<InstitutionDoc>('institutions');
  const staff = readStore.collection<StaffDoc>('institution_staff');
  const institutionAppointments = readStore.collection<InstitutionAppointmentDoc>(INSTITUTION_APPOINTMENTS);
  const membershipIn = async (institution: InstitutionDoc, userId: string): Promise<InstitutionMembership | null> => {
    const entry = (await staff.find({ institution_id: institution._id, user_id: userId, is_active: true }))[0];
    if (!entry) return null;
    // A deactivated doctor is still a member, without rights in the institution (as the write side's membershipOf).
    if (entry.deactivated) return { role: entry.role, is_institution_admin: false, permissions: [] };
    return {
      role: entry.role,
      is_institution_admin: entry.is_institution_admin,
      permissions: (institution.role_permissions[entry.role] ?? []) as Permission[],
    };
  };
  const resolve: InstitutionResolver = async (institutionId, userId) => {
    const institution = await institutions.get(institutionId);
    if (!institution || !institution.is_active) return null;
    return { membership: await membershipIn(institution, userId) };
  };
  /** Active institutions where the user is on the staff, with their membership. */
  const membershipsOf = async (userId: string) => {
    const entries = await staff.find({ user_id: userId, is_active: true }, { sort: { added_position: 1 } });
    const result: Array<{ institution: InstitutionDoc; membership: InstitutionMembership }> = [];
    for (const entry of entries) {
      const institution = await institutions.get(entry.institution_id);
      const membership = institution?.is_active ? await membershipIn(institution, userId) : null;
      if (institution && membership) result.push({ institution, membership });
    }
    return result;
  };
  /** The caller's institutions whose appointments they may read (the console's `read_appointments`): id → their role there. */
  const appointmentReaders = async (userId: string) =>
    new Map((await membershipsOf(userId)).filter((m) => membershipAllows(m.membership, 'read_appointments')).map((m) => [m.institution._id, m.membership.role]));
  /**
   * Through which institution (and in which role) may this user read this appointment? The institution_appointments
   * read model decided, when it was requested, which institutions read it (those that had its doctor as a doctor then:
   * joining opens no earlier history, leaving or a change of role keeps what was made meanwhile but nothing later).
   * Of those the caller may read appointments of, the one the console lists it under (readingInstitution). One get
   * per institution of the caller, whatever the doctors' membership history.
   */
  const institutionReadingAppointment = async (userId: string, appointment: Pick<AppointmentDoc, '_id'>): Promise<{ id: string; role: string } | null> => {
    const callers = await appointmentReaders(userId);
    if (callers.size === 0) return null;
    const entries = await Promise.all([...callers.keys()].map((id) => institutionAppointments.get(institutionAppointmentId(id, appointment._id))));
    // Any entry of the appointment carries every institution that reads it.
    const entry = entries.find((e) => e !== null);
    const id = entry ? readingInstitution(entry.readers_key, new Set(callers.keys())) : null;
    return id === null ? null : { id, role: callers.get(id)! };
  };
  /**
   * Through which institution may this user read this patient's records? One that reads (as its console lists) a
   * confirmed or completed appointment of the patient with a doctor who is still its member (in any role): once the
   * doctor has left, the institution keeps the audit of their appointments, not a window on their patients' records
   * from then on. The caller's institutions in id order (the order readingInstitution names them in). Each asks the
   * read model for the patient's doctors there one at a time (one indexed find of one entry per doctor, never each
   * appointment of a patient who saw the clinic often), and whether that doctor is still a member.
   */
  const institutionReadingPatient = async (userId: string, patientId: string): Promise<{ id: string; role: string } | null> => {
    const callers = await appointmentReaders(userId);
    for (const id of [...callers.keys()].sort()) {
      let after: string | null = null;
      for (;;) {
        const filter: Record<string, unknown> = { institution_id: id, patient_id: patientId, status: { $in: ['confirmed', 'completed'] } };
        if (after !== null) filter.doctor_id = { $gt: after };
        const [next] = await institutionAppointments.find(filter, { sort: { doctor_id: 1 }, limit: 1 });
        if (!next) break;
        if ((await staff.find({ institution_id: id, user_id: next.doctor_id, is_active: true })).length > 0) return { id, role: callers.get(id)! };
        after = next.doctor_id;
      }
    }
    return null;
  };
  return { institutions, staff, resolve, membershipsOf, institutionReadingAppointment, institutionReadingPatient };
}

export function institutionQueryRoutes(api: ApiRouter, readStore: ReadStore, audit: AccessAudit): void {
  const { institutions, staff, membershipsOf, resolve } = institutionLookups(readStore);
  const doctors = readStore.collection<DoctorDoc>('doctors');
  const appointments = readStore.collection<AppointmentDoc>('appointments');
  const institutionAppointments = readStore.collection<InstitutionAppointmentDoc>(INSTITUTION_APPOINTMENTS);
  const withCurrentPeople = appointmentPeople(readStore);
  const invitations = readStore.collection<InvitationDoc>('institution_invitations');
  const idParams = z.object({ id: z.string().min(1).max(64) });

  /** Pending invitations with their (active) institutions. */
  const pendingViews = async (filter: Record<string, unknown>) => {
    const docs = await invitations.find({ ...filter, status: 'pending' }, { sort: { invited_at: 1 } });
    const views: Array<ReturnType<typeof invitationView>> = [];
    for (const doc of docs) {
      const institution = await institutions.get(doc.institution_id);
      if (institution?.is_active) views.push(invitationView(doc, institution));
    }
    return views;
  };

  api.route({
    method: 'get',
    path: '/institutions/invitations',
    summary: "The caller's pending invitations to institutions' staff",
    tags: ['institutions'],
    policy: policies.anyUser,
    response: z.array(institutionInvitationSchema),
    handler: async ({ auth }) => ({ body: await pendingViews({ user_id: auth.user_id }) }),
  });

  api.route({
    method: 'get',
    path: '/institutions/invitations/:invitation_id',
    summary: 'One invitation of the caller, whatever its status (only the invitee; others get 404)',
    tags: ['institutions'],
    policy: policies.anyUser,
    params: z.object({ invitation_id: z.string().min(1).max(64) }),
    response: institutionInvitationSchema,
    errors: [404],
    handler: async ({ auth, params }) => {
      const doc = await invitations.get(params.invitation_id);
      const institution = doc && doc.user_id === auth.user_id ? await institutions.get(doc.institution_id) : null;
      if (!doc || !institution) throw notFound(INSTITUTION_TEXTS.invitationNotFound);
      return { body: invitationView(doc, institution) };
    },
  });

  api.route({
    method: 'get',
    path: '/institutions/',
    summary: 'Active institutions: all of them for platform admins, otherwise those the caller works in',
    tags: ['institutions'],
    policy: policies.anyUser,
    response: z.array(institutionSchema),
    handler: async ({ auth }) => {
      if (auth.account_type === 'admin') {
        return { body: (await institutions.find({ is_active: true }, { sort: { name: 1 } })).map(institutionView) };
      }
      return { body: (await membershipsOf(auth.user_id)).map((m) => institutionView(m.institution)) };
    },
  });

  api.route({
    method: 'get',
    path: '/institutions/check-admin-status',
    summary: 'Whether the caller administers an institution, and which',
    tags: ['institutions'],
    policy: policies.anyUser,
    response: adminStatusSchema,
    handler: async ({ auth }) => {
      const admin = (await membershipsOf(auth.user_id)).find((m) => m.membership.is_institution_admin);
      return { body: { is_institution_admin: Boolean(admin), institution_id: admin?.institution._id ?? null } };
    },
  });

  api.route({
    method: 'get',
    path: '/institutions/my-institution',
    summary: 'The institution the caller administers, with its doctors',
    tags: ['institutions'],
    policy: policies.anyUser,
    response: institutionWithDoctorsSchema,
    errors: [404, 503],
    handler: async ({ auth, req }) => {
      const admin = (await membershipsOf(auth.user_id)).find((m) => m.membership.is_institution_admin);
      if (!admin) throw notFound(INSTITUTION_TEXTS.notAnAdmin);
      const members = await staff.find({ institution_id: admin.institution._id, is_active: true }, { sort: { added_position: 1 } });
      const doctorMembers = members.filter((m) => DOCTOR_ROLES.includes(m.role));
      const list = await Promise.all(
        doctorMembers.map(async (m) => {
          const profile = await doctors.get(m.user_id);
          return {
            doctor_id: m.user_id,
            name: profile?.name ?? m.name,
            email: profile?.email ?? m.email,
            phone_number: profile?.phone_number ?? m.phone,
            specialty: profile?.specialty ?? m.specialization,
            qualification: profile?.qualification ?? null,
            consultation_fee: profile?.consultation_fee ?? null,
            is_active: shownActive(m),
            is_institution_admin: m.is_institution_admin,
          };
        }),
      );
      const pending_invitations = await pendingViews({ institution_id: admin.institution._id });
      // Doctors' and invitees' contact details, read as the institution's administrator.
      const subjects = new Subjects();
      for (const doctor of list) subjects.add(doctor.doctor_id, 'contact_details');
      for (const invitation of pending_invitations) subjects.add(invitation.user_id, 'contact_details');
      await audit.record(auth, req, {
        purpose: 'institution_administration',
        resource: 'institution_doctors',
        route: 'GET /api/v1/institutions/my-institution',
        institution: { id: admin.institution._id, role: admin.membership.role },
        subjects,
      });
      return { body: { ...institutionView(admin.institution), doctors: list, pending_invitations } };
    },
  });

  api.route({
    method: 'get',
    path: '/institutions/:id/staff',
    summary: "The institution's active staff",
    tags: ['institutions'],
    policy: policies.institution('read'),
    params: idParams,
    response: z.array(staffEntrySchema),
    errors: [503],
    handler: async ({ params, auth, req }) => {
      const [members, why] = await Promise.all([
        staff.find({ institution_id: params.id, is_active: true }, { sort: { added_position: 1 } }),
        institutionPurpose(resolve, params.id, auth, 'institution_administration'),
      ]);
      const subjects = new Subjects();
      for (const member of members) subjects.add(member.user_id, 'contact_details');
      await audit.record(auth, req, { ...why, resource: 'institution_staff', route: 'GET /api/v1/institutions/:id/staff', subjects });
      return { body: members.map(staffView) };
    },
  });

  api.route({
    method: 'get',
    path: '/institutions/:id/appointments',
    summary:
      "Appointments with the institution's doctors requested while they were its members (admins and roles with the appointments permission)",
    tags: ['institutions'],
    policy: policies.institution('read_appointments'),
    params: idParams,
    query: z.object({
      appointment_status: z.enum(['requested', 'confirmed', 'rejected', 'cancelled', 'completed']).optional(),
      timezone_str: z.string().max(64).optional(),
      limit: z.coerce
        .number()
        .int()
        .min(1)
        .max(INSTITUTION_APPOINTMENTS_MAX_LIMIT)
        .optional()
        .openapi({ description: `A page of at most this many, newest first (1 to ${INSTITUTION_APPOINTMENTS_MAX_LIMIT}, the default): the next page is after=the last one's id in cursor` }),
      cursor: pageCursorSchema,
    }),
    response: z.array(institutionAppointmentSchema),
    errors: [503],
    handler: async ({ params, query, auth, req }) => {
      const zone = query.timezone_str ? timezoneOf(query) : DEFAULT_TIMEZONE;
      // The institution's appointments (those of its doctors requested while they were its members) are one indexed
      // read model: a page is one find of `limit` entries, then those appointments.
      const entryOf = (appointmentId: string) => institutionAppointmentId(params.id, appointmentId);
      const covers = async (doc: AppointmentDoc) => (await institutionAppointments.get(entryOf(doc._id))) !== null;
      const cursor = await appointmentCursor(appointments, query.cursor, covers);
      const filter: Record<string, unknown> = { institution_id: params.id };
      if (query.appointment_status) filter.status = query.appointment_status;
      // Within the institution an entry's _id orders as its appointment's id (the same prefix before it).
      // Without a limit, the first page of the most the route gives (the seeds' call names none): never every
      // appointment the institution ever had.
      const entries = await institutionAppointments.find(
        { ...filter, ...keysetAfter(cursor && { start: cursor.start, id: entryOf(cursor.id) }, -1) },
        { sort: { start: -1, _id: -1 }, limit: query.limit ?? INSTITUTION_APPOINTMENTS_MAX_LIMIT },
      );
      const byId = new Map((await appointments.find({ _id: { $in: entries.map((e) => e.appointment_id) } })).map((d) => [d._id, d]));
      const docs = await withCurrentPeople(entries.map((e) => byId.get(e.appointment_id)).filter((d): d is AppointmentDoc => d !== undefined));
      // The patients' names and reasons, and the doctors' appointments: each person with the appointments shown.
      const subjects = new Subjects();
      for (const doc of docs) subjects.add(doc.patient_id, doc._id).add(doc.doctor_id, doc._id);
      const why = await institutionPurpose(resolve, params.id, auth, 'institution_audit');
      await audit.record(auth, req, { ...why, resource: 'institution_appointments', route: 'GET /api/v1/institutions/:id/appointments', subjects });
      return {
        body: docs.map((a) => ({
          id: a._id,
          appointment_id: a._id,
          patient: { name: a.patient_name },
          doctor: { doctor_id: a.doctor_id, name: a.doctor_name },
          slot: { ...toLocalSlotFields(a.start, a.end, zone), start_at: a.start },
          status: a.status,
          notes: a.notes,
        })),
      };
    },
  });
}
