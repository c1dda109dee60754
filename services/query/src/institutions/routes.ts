import { DEFAULT_TIMEZONE, DOCTOR_ROLES, INSTITUTION_APPOINTMENTS_MAX_LIMIT, INSTITUTION_TEXTS, notFound, toLocalSlotFields, type AccessPurpose } from '@telemed/contracts';
import { Subjects, policies, type AccessAudit, type AccessClaims, type ApiRouter, type InstitutionResolver, type ReadStore } from '@telemed/platform';
import { INSTITUTION_APPOINTMENTS, institutionAppointmentId, type AppointmentDoc, type DoctorDoc, type InstitutionAppointmentDoc, type InvitationDoc } from '../projections';
import { timezoneOf } from '../timezone';
import { appointmentCursor, keysetAfter } from '../appointments/paging';
import { appointmentPeople } from '../appointments/people';
import { institutionLookups } from './lookups';
import { institutionView, invitationView, memberDoctorView, staffView } from './views';

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

/** The institutions' reads: the caller's invitations and institutions, and an institution's staff and appointments. */
export function institutionQueryRoutes(api: ApiRouter, readStore: ReadStore, audit: AccessAudit): void {
  callerInstitutionRoutes(api, readStore, audit);
  institutionMemberRoutes(api, readStore, audit);
}

/** What the caller is invited to, works in and administers. */
function callerInstitutionRoutes(api: ApiRouter, readStore: ReadStore, audit: AccessAudit): void {
  const { institutions, staff, membershipsOf } = institutionLookups(readStore);
  const doctors = readStore.collection<DoctorDoc>('doctors');
  const invitations = readStore.collection<InvitationDoc>('institution_invitations');

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

  api.implement('listMyInvitations', {
    policy: policies.anyUser,
    handler: async ({ auth }) => ({ body: await pendingViews({ user_id: auth.user_id }) }),
  });

  api.implement('getMyInvitation', {
    policy: policies.anyUser,
    handler: async ({ auth, params }) => {
      const doc = await invitations.get(params.invitation_id);
      const institution = doc && doc.user_id === auth.user_id ? await institutions.get(doc.institution_id) : null;
      if (!doc || !institution) throw notFound(INSTITUTION_TEXTS.invitationNotFound);
      return { body: invitationView(doc, institution) };
    },
  });

  api.implement('listInstitutions', {
    policy: policies.anyUser,
    handler: async ({ auth }) => {
      if (auth.account_type === 'admin') {
        return { body: (await institutions.find({ is_active: true }, { sort: { name: 1 } })).map(institutionView) };
      }
      return { body: (await membershipsOf(auth.user_id)).map((m) => institutionView(m.institution)) };
    },
  });

  api.implement('checkAdminStatus', {
    policy: policies.anyUser,
    handler: async ({ auth }) => {
      const admin = (await membershipsOf(auth.user_id)).find((m) => m.membership.is_institution_admin);
      return { body: { is_institution_admin: Boolean(admin), institution_id: admin?.institution._id ?? null } };
    },
  });

  api.implement('getMyInstitution', {
    policy: policies.anyUser,
    handler: async ({ auth, req }) => {
      const admin = (await membershipsOf(auth.user_id)).find((m) => m.membership.is_institution_admin);
      if (!admin) throw notFound(INSTITUTION_TEXTS.notAnAdmin);
      const members = await staff.find({ institution_id: admin.institution._id, is_active: true }, { sort: { added_position: 1 } });
      const doctorMembers = members.filter((m) => DOCTOR_ROLES.includes(m.role));
      const list = await Promise.all(
        doctorMembers.map(async (m) => memberDoctorView(m, await doctors.get(m.user_id))),
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

}

/** An institution's staff and appointments, for its members (in their role's rights) and platform operators. */
function institutionMemberRoutes(api: ApiRouter, readStore: ReadStore, audit: AccessAudit): void {
  const { staff, resolve } = institutionLookups(readStore);
  const appointments = readStore.collection<AppointmentDoc>('appointments');
  const institutionAppointments = readStore.collection<InstitutionAppointmentDoc>(INSTITUTION_APPOINTMENTS);
  const withCurrentPeople = appointmentPeople(readStore);

  api.implement('listInstitutionStaff', {
    policy: policies.institution('read'),
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

  api.implement('listInstitutionAppointments', {
    policy: policies.institution('read_appointments'),
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
