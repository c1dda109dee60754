import {
  ADMIN_TEXTS,
  API_TEXTS,
  DEFAULT_TIMEZONE,
  DOCTOR_ROLES,
  INSTITUTION_TEXTS,
  NOTES_SEARCH_MAX_DAYS,
  instantRange,
  membershipAllows,
  memberId,
  notFound,
  parseMemberId,
  toLocalSlotFields,
  z,
  type AdminAction,
  type AdminPermissions,
  type AdminResource,
  type InstitutionAbility,
  type InstitutionMembership,
} from '@telemed/contracts';
import {
  HttpError,
  RawBody,
  RequestValidationError,
  policies,
  reactAdminErrors,
  type AccessClaims,
  type ApiRouter,
  type Filter,
  type ReadStore,
} from '@telemed/platform';
import { INSTITUTION_APPOINTMENTS, INSTITUTION_READER_SETS, institutionAppointmentId, readingInstitution, type ReaderSetsDoc, type AppointmentDoc, type DoctorDoc, type HistoryDoc, type InstitutionAppointmentDoc, type InstitutionDoc, type StaffDoc, type UserDoc } from '../projections';
import { Subjects, type AccessAudit } from '@telemed/platform';
import { institutionLookups } from '../institutions/routes';
import { COUNTED, byField, byKeys, contentRange, idsFilter, listQuerySchema, pageOf, type ListQuery } from './ra';
import { describe, historyCsv, type TimelineEntry } from './history';
import { appointmentPeople } from '../appointments/people';
import { institutionView, shownActive } from '../institutions/routes';

const idParams = z.object({ id: z.string().min(1).max(200) });
const isoInstant = z.iso.datetime({ offset: true });

/** Who is asking, as the console sees it: a platform admin, or a member of some institutions. */
type Scope = { platform: true; memberships: [] } | { platform: false; memberships: Array<{ institution: InstitutionDoc; membership: InstitutionMembership }> };


const staffRecord = (doc: StaffDoc) => ({
  id: memberId(doc.institution_id, doc.user_id),
  institution_id: doc.institution_id,
  user_id: doc.user_id,
  staff_id: doc._id,
  name: doc.name,
  email: doc.email,
  phone: doc.phone,
  role: doc.role,
  role_title: doc.role_title,
  department: doc.department,
  specialization: doc.specialization,
  is_active: shownActive(doc),
  deactivated: doc.deactivated === true,
  is_institution_admin: doc.is_institution_admin,
  added_at: doc.added_at,
});

const doctorRecord = (doc: StaffDoc, profile: DoctorDoc | null) => ({
  id: memberId(doc.institution_id, doc.user_id),
  institution_id: doc.institution_id,
  doctor_id: doc.user_id,
  name: profile?.name ?? doc.name,
  email: profile?.email ?? doc.email,
  phone_number: profile?.phone_number ?? doc.phone,
  specialty: profile?.specialty ?? doc.specialization,
  qualification: profile?.qualification ?? null,
  consultation_fee: profile?.consultation_fee ?? null,
  role: doc.role,
  is_active: shownActive(doc),
  deactivated: doc.deactivated === true,
  is_institution_admin: doc.is_institution_admin,
});

const userRecord = (doc: UserDoc) => ({
  id: doc._id,
  name: doc.name,
  email: doc.email,
  phone_number: doc.phone_number,
  account_type: doc.account_type,
  is_active: doc.active,
  registered_at: doc.registered_at,
  erased: doc.erased_at !== undefined,
});

/** What each kind of caller may do in the console; the server checks the same rules on every route. */
export function permissionsOf(auth: AccessClaims, scope: Scope): AdminPermissions {
  if (scope.platform) {
    const all: AdminAction[] = ['list', 'show', 'create', 'edit', 'delete', 'export'];
    return {
      user_id: auth.user_id,
      kind: 'platform_admin',
      institutions: [],
      resources: {
        institutions: all,
        staff: ['list', 'show', 'create', 'edit', 'delete'],
        doctors: ['list', 'show', 'create', 'edit', 'delete'],
        appointments: ['list', 'show', 'export'],
        users: ['list', 'show', 'edit'],
        projections: ['list', 'edit'],
      },
    };
  }
  const can = (ability: InstitutionAbility) => scope.memberships.some((m) => membershipAllows(m.membership, ability));
  const resources: Partial<Record<AdminResource, AdminAction[]>> = {};
  if (can('read')) {
    resources.institutions = can('manage_institution') ? ['list', 'show', 'edit'] : ['list', 'show'];
    resources.staff = can('manage_staff') ? ['list', 'show', 'create', 'edit', 'delete'] : ['list', 'show'];
    resources.doctors = can('manage_staff') ? ['list', 'show', 'create', 'edit', 'delete'] : ['list', 'show'];
  }
  if (can('read_appointments')) resources.appointments = ['list', 'show', 'export'];
  return {
    user_id: auth.user_id,
    kind: scope.memberships.length > 0 ? 'institution' : 'none',
    institutions: scope.memberships.map((m) => ({
      id: m.institution._id,
      name: m.institution.name,
      role: m.membership.role,
      is_institution_admin: m.membership.is_institution_admin,
      permissions: [...m.membership.permissions],
    })),
    resources,
  };
}

/** The react-admin console's reads: `/admin/<resource>` in ra-data-simple-rest's conventions (issue 15). */
export function adminQueryRoutes(api: ApiRouter, deps: { readStore: ReadStore; audit: AccessAudit }): void {
  api.router.use('/admin', reactAdminErrors);
  const { readStore, audit } = deps;
  const lookups = institutionLookups(readStore);
  const { institutions, staff } = lookups;
  const doctors = readStore.collection<DoctorDoc>('doctors');
  const users = readStore.collection<UserDoc>('users');
  const appointments = readStore.collection<AppointmentDoc>('appointments');
  const institutionAppointments = readStore.collection<InstitutionAppointmentDoc>(INSTITUTION_APPOINTMENTS);
  const readerSets = readStore.collection<ReaderSetsDoc>(INSTITUTION_READER_SETS);
  const history = readStore.collection<HistoryDoc>('appointment_history');
  const withCurrentPeople = appointmentPeople(readStore);

  const scopeOf = async (auth: AccessClaims): Promise<Scope> =>
    auth.account_type === 'admin' ? { platform: true, memberships: [] } : { platform: false, memberships: await lookups.membershipsOf(auth.user_id) };

  /** Institutions whose data the caller may read for this ability; null means all (platform admins). */
  const readable = (scope: Scope, ability: InstitutionAbility): Set<string> | null =>
    scope.platform ? null : new Set(scope.memberships.filter((m) => membershipAllows(m.membership, ability)).map((m) => m.institution._id));

  const refuseIfNone = (ids: Set<string> | null) => {
    if (ids && ids.size === 0) throw new HttpError(403, API_TEXTS.forbiddenRole);
  };

  const auditPurpose = (scope: Scope, institutionId: string | null) => {
    const member = scope.platform ? undefined : scope.memberships.find((m) => m.institution._id === institutionId);
    return member
      ? { purpose: 'institution_administration' as const, institution: { id: member.institution._id, role: member.membership.role } }
      : { purpose: 'platform_administration' as const, institution: institutionId ? { id: institutionId, role: null } : null };
  };

  api.route({
    method: 'get',
    path: '/admin/permissions',
    summary: "What the caller may do in the console, by resource and action (react-admin's canAccess)",
    tags: ['admin'],
    policy: policies.anyUser,
    response: z.object({ user_id: z.string(), kind: z.string(), institutions: z.array(z.object({ id: z.string() }).loose()), resources: z.record(z.string(), z.array(z.string())) }),
    handler: async ({ auth }) => ({ body: permissionsOf(auth, await scopeOf(auth)) }),
  });

  // ---- institutions ----
  const institutionList = listQuerySchema(
    z.object({ id: idsFilter.optional(), is_active: z.boolean().optional(), q: z.string().max(100).optional() }),
    ['name', 'slug', 'created_at', 'id'],
    'name',
  );
  api.route({
    method: 'get',
    path: '/admin/institutions',
    summary: 'Institutions: all for platform admins, otherwise those the caller works in (ra-data-simple-rest list)',
    tags: ['admin'],
    policy: policies.anyUser,
    query: institutionList,
    response: z.array(z.object({ id: z.string() }).loose()),
    handler: async ({ auth, query }) => {
      const scope = await scopeOf(auth);
      const allowed = readable(scope, 'read');
      refuseIfNone(allowed);
      const f = query.filter;
      const q = f.q?.toLowerCase();
      const keep = (d: InstitutionDoc) =>
        (!f.id || f.id.includes(d._id)) && (f.is_active === undefined || d.is_active === f.is_active) && (!q || d.name.toLowerCase().includes(q) || d.slug.includes(q));
      const sortField = query.sort.field === 'id' ? '_id' : query.sort.field;
      if (allowed) {
        const mine = (await Promise.all([...allowed].map((id) => institutions.get(id)))).filter((d): d is InstitutionDoc => d !== null && keep(d));
        return pageOf('institutions', mine.map(institutionView).sort(byField(query.sort.field, query.sort.order)), query);
      }
      // Institutions are few; the filter narrows by id where it can.
      const filter: Filter = {};
      if (f.id) filter._id = { $in: f.id };
      if (f.is_active !== undefined) filter.is_active = f.is_active;
      if (q) {
        const all = (await institutions.find(filter, { sort: { [sortField]: query.sort.order } })).filter(keep);
        return pageOf('institutions', all.map(institutionView), query);
      }
      const [page, total] = await Promise.all([
        institutions.find(filter, { sort: { [sortField]: query.sort.order, _id: query.sort.order }, skip: query.start, limit: query.end - query.start + 1 }),
        institutions.count(filter, COUNTED),
      ]);
      return { body: page.map(institutionView), headers: contentRange('institutions', query.start, page.length, total) };
    },
  });

  api.route({
    method: 'get',
    path: '/admin/institutions/:id',
    summary: 'One institution (platform admins, or its members)',
    tags: ['admin'],
    policy: policies.anyUser,
    params: idParams,
    response: z.object({ id: z.string() }).loose(),
    errors: [404],
    handler: async ({ auth, params }) => {
      const allowed = readable(await scopeOf(auth), 'read');
      const doc = !allowed || allowed.has(params.id) ? await institutions.get(params.id) : null;
      if (!doc) throw notFound(INSTITUTION_TEXTS.institutionNotFound);
      return { body: institutionView(doc) };
    },
  });

  // ---- staff and doctors: an institution's members ----
  const memberFilter = z.object({
    id: idsFilter.optional(),
    institution_id: z.string().min(1).max(64).optional(),
    role: z.string().max(20).optional(),
    is_active: z.boolean().optional(),
    q: z.string().max(100).optional(),
  });

  const MEMBER_SORT = ['name', 'role', 'email', 'added_at', 'specialty', 'id'] as const;
  type MemberSort = (typeof MEMBER_SORT)[number];

  type MemberQuery = ListQuery<z.output<typeof memberFilter>, MemberSort>;
  /** A page of members, how many the list has, and the members it read (whom the audit names). */
  type MembersPage = { docs: StaffDoc[]; total: number; read: StaffDoc[] };

  /**
   * The members a list asks for, a page read in order through an index and its total counted in one: every
   * institution's (a platform admin without an institution or ids), one institution's, or a merge of each of the
   * caller's institutions' first pages. getMany's ids, a search by text and the removed members read what they name or
   * the institutions' entries (membersByEntries).
   */
  async function membersPage(scope: Scope, query: MemberQuery, doctorsOnly: boolean): Promise<MembersPage> {
    const f = query.filter;
    const allowed = readable(scope, 'read');
    refuseIfNone(allowed);
    if (f.institution_id && allowed && !allowed.has(f.institution_id)) throw notFound(INSTITUTION_TEXTS.institutionNotFound);
    if (f.id) return pageInMemory(await membersById(f.id, allowed, f, doctorsOnly), query, doctorsOnly);
    const institutionIds = f.institution_id ? [f.institution_id] : allowed ? [...allowed] : null;
    if (!institutionIds) return platformMembersPage(query, doctorsOnly);
    if (f.q || f.is_active === false) return pageInMemory(await membersByEntries(institutionIds, f, doctorsOnly), query, doctorsOnly);
    const filter = currentMembersFilter(f, doctorsOnly);
    if (!filter) return { docs: [], total: 0, read: [] };
    return institutionIds.length === 1 ? institutionMembersPage(institutionIds[0]!, filter, query, doctorsOnly) : institutionsMembersPage(institutionIds, filter, query, doctorsOnly);
  }

  /** The current members a list asks for (is_active true leaves out the deactivated doctors), or null when none can match. */
  function currentMembersFilter(f: z.output<typeof memberFilter>, doctorsOnly: boolean): Filter | null {
    const filter: Filter = { is_active: true };
    if (f.is_active === true) filter.deactivated = { $ne: true };
    if (doctorsOnly && f.role && !DOCTOR_ROLES.includes(f.role as (typeof DOCTOR_ROLES)[number])) return null;
    if (f.role) filter.role = f.role;
    else if (doctorsOnly) filter.role = { $in: [...DOCTOR_ROLES] };
    return filter;
  }

  /**
   * The keys a members' page is read in: the field asked for, then the record's id (`<institution_id>~<user_id>`: the
   * order of ties, and of `id` itself; within one institution, the user id). The doctors list shows and orders by the
   * doctor account's name and specialty, which the member carries (doctor_name, doctor_specialty); a staff record has
   * no specialty.
   */
  function memberOrder(sort: MemberQuery['sort'], doctorsOnly: boolean, oneInstitution: boolean): Record<string, 1 | -1> {
    const { field, order } = sort;
    const key = doctorsOnly && (field === 'name' || field === 'specialty') ? `doctor_${field}` : field === 'id' || field === 'specialty' ? null : field;
    return { ...(key ? { [key]: order } : {}), ...(oneInstitution ? {} : { institution_id: order }), user_id: order };
  }

  /** One institution's current members: a page through its index in the order asked, and a count. */
  async function institutionMembersPage(institutionId: string, filter: Filter, query: MemberQuery, doctorsOnly: boolean): Promise<MembersPage> {
    const where = { ...filter, institution_id: institutionId };
    const sort = memberOrder(query.sort, doctorsOnly, true);
    const [docs, total] = await Promise.all([staff.find(where, { sort, skip: query.start, limit: query.end - query.start + 1 }), staff.count(where, COUNTED)]);
    return { docs, total, read: docs };
  }

  /**
   * The current members of several institutions (a member of more than one): each institution's first `end + 1` in the
   * order asked, merged, hold the page (a person is a member of each once); the counts add up to the total.
   */
  async function institutionsMembersPage(institutionIds: string[], filter: Filter, query: MemberQuery, doctorsOnly: boolean): Promise<MembersPage> {
    const sort = memberOrder(query.sort, doctorsOnly, true);
    const lists = await Promise.all(
      institutionIds.map((id) => {
        const where = { ...filter, institution_id: id };
        return Promise.all([staff.find(where, { sort, limit: query.end + 1 }), staff.count(where, COUNTED)]);
      }),
    );
    const merged = lists.flatMap(([docs]) => docs).sort(byKeys(memberOrder(query.sort, doctorsOnly, false)));
    const docs = merged.slice(query.start, query.end + 1);
    return { docs, total: lists.reduce((sum, [, count]) => sum + count, 0), read: docs };
  }

  /**
   * Every institution's current members (a platform admin's list without an institution or ids): one page in the order
   * asked for and its total, both through the indexes on (is_active, field), so the page costs what it shows, not every
   * membership and role interval the platform ever had. Staff by name or e-mail are in the order of the name and
   * address their institution recorded, doctors by the name and specialty of their account (what their records show).
   * A search by text and the removed members (is_active false, which takes each person's latest entry) are an
   * institution's lists' (422 says so).
   */
  async function platformMembersPage(query: MemberQuery, doctorsOnly: boolean): Promise<MembersPage> {
    const f = query.filter;
    const narrow = (what: string) =>
      new RequestValidationError([{ loc: ['query', 'filter', 'institution_id'], msg: `${what} needs an institution: filter by institution_id`, type: 'institution_required' }]);
    if (f.q) throw narrow('A search by name or e-mail');
    if (f.is_active === false) throw narrow('Listing removed and deactivated members');
    const filter = currentMembersFilter(f, doctorsOnly);
    if (!filter) return { docs: [], total: 0, read: [] };
    const sort = memberOrder(query.sort, doctorsOnly, false);
    const [docs, total] = await Promise.all([staff.find(filter, { sort, skip: query.start, limit: query.end - query.start + 1 }), staff.count(filter, COUNTED)]);
    return { docs, total, read: docs };
  }

  /** getMany's members (at most a page of ids), each read by its own entries in its institution. */
  async function membersById(ids: string[], allowed: Set<string> | null, f: z.output<typeof memberFilter>, doctorsOnly: boolean): Promise<StaffDoc[]> {
    const members = ids.map(parseMemberId);
    if (members.some((m) => m === null)) throw new RequestValidationError([{ loc: ['query', 'filter', 'id'], msg: 'Not a member id', type: 'invalid_id' }]);
    const readableMembers = members.filter((m) => !allowed || allowed.has(m!.institution_id));
    const activeFilter = f.is_active === false ? {} : { is_active: true };
    const found = await Promise.all(readableMembers.map((m) => staff.find({ institution_id: m!.institution_id, user_id: m!.user_id, ...activeFilter })));
    return latestMembers(found.flat(), f, doctorsOnly);
  }

  /**
   * The institutions' members a search by name or e-mail (no index on free text) or a list of the removed members (each
   * person's latest entry decides) asks for: every entry of theirs read, an API-only filter the console does not offer.
   */
  async function membersByEntries(institutionIds: string[], f: z.output<typeof memberFilter>, doctorsOnly: boolean): Promise<StaffDoc[]> {
    // Without is_active, or true: the current members. With false: every entry, and the latest decides.
    const activeFilter = f.is_active === false ? {} : { is_active: true };
    const found = await Promise.all(institutionIds.map((id) => staff.find({ institution_id: id, ...activeFilter })));
    return latestMembers(found.flat(), f, doctorsOnly);
  }

  /** One entry per (institution, person) among those the filter keeps, the latest, shown active or not as the filter asks. */
  function latestMembers(found: StaffDoc[], f: z.output<typeof memberFilter>, doctorsOnly: boolean): StaffDoc[] {
    const q = f.q?.toLowerCase();
    const keep = (d: StaffDoc) =>
      // A role's closed interval is history of a current member, not a removed one.
      d.superseded !== true &&
      (!doctorsOnly || DOCTOR_ROLES.includes(d.role)) &&
      (!f.role || d.role === f.role) &&
      (!q || d.name.toLowerCase().includes(q) || d.email.includes(q));
    const latest = new Map<string, StaffDoc>();
    for (const d of found.filter(keep)) {
      const key = memberId(d.institution_id, d.user_id);
      const seen = latest.get(key);
      if (!seen || seen.added_position < d.added_position) latest.set(key, d);
    }
    return [...latest.values()].filter((d) => f.is_active === undefined || shownActive(d) === f.is_active);
  }

  /** A page of members read whole (by id, or by every entry): a search's page has read every member it matched. */
  function pageInMemory(members: StaffDoc[], query: MemberQuery, doctorsOnly: boolean): MembersPage {
    const sorted = members.sort(byKeys(memberOrder(query.sort, doctorsOnly, false)));
    const docs = sorted.slice(query.start, query.end + 1);
    return { docs, total: sorted.length, read: query.filter.q ? sorted : docs };
  }

  const recordAudit = async (auth: AccessClaims, req: Parameters<AccessAudit['record']>[1], scope: Scope, docs: StaffDoc[], resource: 'institution_staff' | 'institution_doctors', route: string) => {
    const byInstitution = new Map<string, Subjects>();
    for (const d of docs) {
      let subjects = byInstitution.get(d.institution_id);
      if (!subjects) byInstitution.set(d.institution_id, (subjects = new Subjects()));
      subjects.add(d.user_id, 'contact_details');
    }
    for (const [institutionId, subjects] of byInstitution) await audit.record(auth, req, { ...auditPurpose(scope, institutionId), resource, route, subjects });
  };

  for (const kind of ['staff', 'doctors'] as const) {
    const doctorsOnly = kind === 'doctors';
    const resource = doctorsOnly ? ('institution_doctors' as const) : ('institution_staff' as const);
    const toRecords = async (docs: StaffDoc[]) =>
      doctorsOnly ? Promise.all(docs.map(async (d) => doctorRecord(d, await doctors.get(d.user_id)))) : docs.map(staffRecord);
    api.route({
      method: 'get',
      path: `/admin/${kind}`,
      summary: doctorsOnly
        ? "Institutions' doctors (filter institution_id; getMany by id `<institution_id>~<doctor_id>`)"
        : "Institutions' staff with their roles (filter institution_id; getMany by id `<institution_id>~<user_id>`)",
      tags: ['admin'],
      policy: policies.anyUser,
      query: listQuerySchema(memberFilter, MEMBER_SORT, 'name'),
      response: z.array(z.object({ id: z.string() }).loose()),
      errors: [403, 404, 503],
      handler: async ({ auth, query, req }) => {
        const scope = await scopeOf(auth);
        const { docs, total, read } = await membersPage(scope, query, doctorsOnly);
        await recordAudit(auth, req, scope, read, resource, `GET /api/v1/admin/${kind}`);
        return { body: await toRecords(docs), headers: contentRange(kind, query.start, docs.length, total) };
      },
    });
    api.route({
      method: 'get',
      path: `/admin/${kind}/:id`,
      summary: `One of an institution's ${doctorsOnly ? 'doctors' : 'staff'} (id \`<institution_id>~<user_id>\`)`,
      tags: ['admin'],
      policy: policies.anyUser,
      params: idParams,
      response: z.object({ id: z.string() }).loose(),
      errors: [404, 503],
      handler: async ({ auth, params, req }) => {
        const scope = await scopeOf(auth);
        const member = parseMemberId(params.id);
        const allowed = readable(scope, 'read');
        if (!member || (allowed && !allowed.has(member.institution_id))) throw notFound(ADMIN_TEXTS.memberNotFound);
        const entries = await staff.find({ institution_id: member.institution_id, user_id: member.user_id }, { sort: { added_position: -1 }, limit: 1 });
        const doc = entries[0];
        if (!doc || (doctorsOnly && !DOCTOR_ROLES.includes(doc.role))) throw notFound(ADMIN_TEXTS.memberNotFound);
        await recordAudit(auth, req, scope, [doc], resource, `GET /api/v1/admin/${kind}/:id`);
        return { body: (await toRecords([doc]))[0]! };
      },
    });
  }

  // ---- appointments ----
  const appointmentFilter = z.object({
    id: idsFilter.optional(),
    status: z.enum(['requested', 'confirmed', 'rejected', 'cancelled', 'completed']).optional(),
    doctor_id: z.string().min(1).max(64).optional(),
    patient_id: z.string().min(1).max(64).optional(),
    institution_id: z.string().min(1).max(64).optional(),
    start_gte: isoInstant.optional(),
    start_lte: isoInstant.optional(),
    start_gt: isoInstant.optional(),
    start_lt: isoInstant.optional(),
    q: z.string().min(1).max(100).optional(),
  });
  // Orders an index answers a page of: sorting every appointment ever by a field without one (created_at, updated_at:
  // a third of a second at 200 000 appointments, the event loop held) grew with the history, and the console never asks it.
  // By status means by status, then start: one status's appointments are most of the history, and a page of them sorted
  // by id alone would sort them all.
  const appointmentSort = ['start', 'status', 'id'] as const;
  /** The filter's bounds on starts as a range over the stored starts (compared as times, whatever the request's precision). */
  const startRange = (f: z.output<typeof appointmentFilter>) =>
    f.start_gte || f.start_lte || f.start_gt || f.start_lt ? instantRange({ gte: f.start_gte, lte: f.start_lte, gt: f.start_gt, lt: f.start_lt }) : null;

  /**
   * The appointments this caller may read: platform admins all, an institution's members those with its doctors
   * requested while they were members (as `GET /institutions/:id/appointments`), each membership interval one indexed find.
   */
  async function appointmentPage(scope: Scope, query: ListQuery<z.output<typeof appointmentFilter>, (typeof appointmentSort)[number]>) {
    const f = query.filter;
    const base: Filter = {};
    if (f.status) base.status = f.status;
    if (f.patient_id) base.patient_id = f.patient_id;
    if (f.id) base._id = { $in: f.id };
    const starts = startRange(f);
    if (starts) base.start = starts;
    const order = query.sort.order;
    const sort: Record<string, 1 | -1> =
      query.sort.field === 'status' ? { status: order, start: order, _id: order } : query.sort.field === 'id' ? { _id: order } : { start: order, _id: order };
    const needle = f.q?.toLowerCase();
    // Searching notes reads every appointment the other filters leave (of the caller's institutions; no index on free
    // text): only within a window of starts (NOTES_SEARCH_MAX_DAYS), never the whole history.
    const matchesNotes = needle ? (d: AppointmentDoc) => d.notes.toLowerCase().includes(needle) : null;
    if (scope.platform) {
      // Notes are the patient's health data: not an operator's to read, nor to search.
      if (f.q) throw new HttpError(403, ADMIN_TEXTS.notesNotReadable);
      const filter: Filter = { ...base };
      if (f.doctor_id) filter.doctor_id = f.doctor_id;
      if (f.institution_id) return institutionPage(f.institution_id, query, matchesNotes);
      // Orders an index serves with these filters: every index on one person's appointments begins with their id, then
      // the start (none orders them by status), and only the whole list is in id order.
      const byPerson = Boolean(f.doctor_id || f.patient_id);
      if ((query.sort.field === 'status' && byPerson && !f.status) || (query.sort.field === 'id' && (byPerson || f.status || starts))) {
        throw new RequestValidationError([{ loc: ['query', 'sort'], msg: ADMIN_TEXTS.sortNotOffered, type: 'value_error' }]);
      }
      const [docs, total] = await Promise.all([appointments.find(filter, { sort, skip: query.start, limit: query.end - query.start + 1 }), appointments.count(filter, COUNTED)]);
      return { docs, total, institutionOf: () => null as string | null };
    }
    const allowed = readable(scope, 'read_appointments')!;
    refuseIfNone(allowed);
    if (f.q) {
      const from = f.start_gte ?? f.start_gt;
      const to = f.start_lte ?? f.start_lt;
      const span = from && to ? Date.parse(to) - Date.parse(from) : Infinity;
      if (!(span <= NOTES_SEARCH_MAX_DAYS * 86_400_000)) {
        throw new RequestValidationError([{ loc: ['query', 'filter', 'q'], msg: ADMIN_TEXTS.notesSearchWindow, type: 'value_error' }]);
      }
    }
    const institutionIds = f.institution_id ? [...allowed].filter((id) => id === f.institution_id) : [...allowed];
    if (f.institution_id && institutionIds.length === 0) throw notFound(INSTITUTION_TEXTS.institutionNotFound);
    if (institutionIds.length === 1) return institutionPage(institutionIds[0]!, query, matchesNotes);
    return institutionsPage(institutionIds, query, matchesNotes);
  }

  /** The institution's entries the filter asks for (its own index range when ordered by id). */
  function institutionFilter(institutionId: string, query: ListQuery<z.output<typeof appointmentFilter>, (typeof appointmentSort)[number]>): Filter {
    const f = query.filter;
    const starts = startRange(f);
    // By id alone: the institution's range of ids (all begin with its id) is the whole filter, read in the primary key.
    const idRangeOnly = query.sort.field === 'id' && !f.id && !f.status && !f.doctor_id && !f.patient_id && !starts;
    const filter: Filter = idRangeOnly ? {} : { institution_id: institutionId };
    if (f.status) filter.status = f.status;
    if (f.doctor_id) filter.doctor_id = f.doctor_id;
    if (f.patient_id) filter.patient_id = f.patient_id;
    if (f.id) filter._id = { $in: f.id.map((id) => institutionAppointmentId(institutionId, id)) };
    // By id: the institution's range of ids (all begin with its id), not every institution's entries in id order.
    else if (query.sort.field === 'id') filter._id = { $gt: institutionAppointmentId(institutionId, ''), $lt: institutionAppointmentId(institutionId, '\uffff') };
    if (starts) filter.start = starts;
    return filter;
  }

  /**
   * Several institutions' page (a member of more than one): each appointment once, under the first of the caller's
   * institutions that reads it. Each institution names the sets of institutions its entries are read by (its own id
   * alone, unless a doctor of it was another's doctor at the same time); for each set whose first of the caller's
   * institutions it is, one indexed find of the first `end + 1` entries in the order asked and a count. These lists
   * hold each appointment once, so their merge's first `end + 1` hold the page, and the counts add up to the total.
   * What it reads grows with the page's depth and the sets, not with the doctors' membership history.
   */
  async function institutionsPage(institutionIds: string[], query: ListQuery<z.output<typeof appointmentFilter>, (typeof appointmentSort)[number]>, matchesNotes: ((d: AppointmentDoc) => boolean) | null) {
    const callers = new Set(institutionIds);
    const lists: Array<{ institutionId: string; readersKey: string }> = [];
    for (const institutionId of institutionIds) {
      for (const key of (await readerSets.get(institutionId))?.keys ?? []) {
        if (readingInstitution(key, callers) === institutionId) lists.push({ institutionId, readersKey: key });
      }
    }
    const order = query.sort.order;
    const field = query.sort.field === 'id' ? 'appointment_id' : query.sort.field;
    const sort = query.sort.field === 'id' ? { _id: order } : { [query.sort.field]: order, _id: order };
    const wanted = query.end + 1;
    const institutionById = new Map<string, string>();
    let entries: InstitutionAppointmentDoc[] = [];
    let total = 0;
    for (const list of lists) {
      const filter = { ...institutionFilter(list.institutionId, query), readers_key: list.readersKey };
      // A notes search reads its window's entries (no index on free text); the page's filter is applied below.
      const [found, count] = await Promise.all([institutionAppointments.find(filter, matchesNotes ? { sort } : { sort, limit: wanted }), matchesNotes ? 0 : institutionAppointments.count(filter, COUNTED)]);
      total += count;
      for (const entry of found) institutionById.set(entry.appointment_id, list.institutionId);
      entries.push(...found);
    }
    // Within one list an entry's _id orders as its appointment's id; across lists the appointment's id breaks ties.
    const compare = (a: InstitutionAppointmentDoc, b: InstitutionAppointmentDoc) => {
      const x = a[field as keyof InstitutionAppointmentDoc];
      const y = b[field as keyof InstitutionAppointmentDoc];
      const byValue = x < y ? -1 : x > y ? 1 : a.appointment_id < b.appointment_id ? -1 : a.appointment_id > b.appointment_id ? 1 : 0;
      return byValue * order;
    };
    entries.sort(compare);
    const appointmentsOf = async (chosen: InstitutionAppointmentDoc[]) => {
      const found = await appointments.find({ _id: { $in: chosen.map((e) => e.appointment_id) } });
      const byId = new Map(found.map((d) => [d._id, d]));
      return chosen.map((e) => byId.get(e.appointment_id)).filter((d): d is AppointmentDoc => d !== undefined);
    };
    const institutionOf = (id: string) => institutionById.get(id) ?? null;
    if (matchesNotes) {
      const matching = (await appointmentsOf(entries)).filter(matchesNotes);
      return { docs: matching.slice(query.start, query.end + 1), total: matching.length, institutionOf, searched: matching };
    }
    entries = entries.slice(query.start, query.end + 1);
    return { docs: await appointmentsOf(entries), total, institutionOf };
  }

  /**
   * One institution's page: one indexed find of the page's entries (institution_appointments, which holds an
   * appointment for each institution that had its doctor as a member when it was requested) and a count in the index;
   * only the page's appointments are read. A notes search reads its window's appointments (no index on free text).
   */
  async function institutionPage(institutionId: string, query: ListQuery<z.output<typeof appointmentFilter>, (typeof appointmentSort)[number]>, matchesNotes: ((d: AppointmentDoc) => boolean) | null) {
    const filter = institutionFilter(institutionId, query);
    const order = query.sort.order;
    // Within one institution an entry's _id orders as its appointment's id (the same prefix before it).
    const sort = query.sort.field === 'id' ? { _id: order } : { [query.sort.field]: order, _id: order };
    const appointmentsOf = async (entries: InstitutionAppointmentDoc[]) => {
      const found = await appointments.find({ _id: { $in: entries.map((e) => e.appointment_id) } });
      const byId = new Map(found.map((d) => [d._id, d]));
      return entries.map((e) => byId.get(e.appointment_id)).filter((d): d is AppointmentDoc => d !== undefined);
    };
    const institutionOf = () => institutionId;
    if (matchesNotes) {
      const matching = (await appointmentsOf(await institutionAppointments.find(filter, { sort }))).filter(matchesNotes);
      return { docs: matching.slice(query.start, query.end + 1), total: matching.length, institutionOf, searched: matching };
    }
    const [entries, total] = await Promise.all([
      institutionAppointments.find(filter, { sort, skip: query.start, limit: query.end - query.start + 1 }),
      institutionAppointments.count(filter, COUNTED),
    ]);
    return { docs: await appointmentsOf(entries), total, institutionOf };
  }

  const appointmentRecord = (a: AppointmentDoc, zone: string, notesReadable: boolean, institutionId: string | null) => ({
    id: a._id,
    patient_id: a.patient_id,
    patient_name: a.patient_name,
    doctor_id: a.doctor_id,
    doctor_name: a.doctor_name,
    doctor_specialty: a.doctor_specialty,
    institution_id: institutionId,
    start: a.start,
    end: a.end,
    ...toLocalSlotFields(a.start, a.end, zone),
    status: a.status,
    status_reason: a.status_reason,
    notes: notesReadable ? a.notes : null,
    created_at: a.created_at,
    updated_at: a.updated_at,
  });

  api.route({
    method: 'get',
    path: '/admin/appointments',
    summary:
      "Appointments: all for platform admins (without notes), an institution's for its members who may read appointments (filters status, doctor_id, patient_id, start_gte, start_lte, start_gt, start_lt, q in notes)",
    tags: ['admin'],
    policy: policies.anyUser,
    query: listQuerySchema(appointmentFilter, appointmentSort, 'start'),
    response: z.array(z.object({ id: z.string() }).loose()),
    errors: [403, 404, 503],
    handler: async ({ auth, query, req }) => {
      const scope = await scopeOf(auth);
      const page = await appointmentPage(scope, query);
      const { total, institutionOf } = page;
      const docs = await withCurrentPeople(page.docs);
      const subjects = new Map<string | null, Subjects>();
      // A search in the notes read every matching appointment's notes, and its total tells how many matched even when the
      // page shows none of them (a patient_id and a word, past the last row): each one searched is on the record too.
      const searched = 'searched' in page && page.searched ? page.searched : [];
      const read = [...docs, ...searched].map((doc) => ({ doc, institution: institutionOf(doc._id) }));
      // So does one patient's list (patient_id): its total tells how many appointments they have here even on a page
      // past the last row. A patient's appointments are few: read whole, each one counted is on the record.
      if (query.filter.patient_id && searched.length === 0 && total > docs.length) {
        const whole = await appointmentPage(scope, { ...query, start: 0, end: total - 1 });
        read.push(...whole.docs.map((doc) => ({ doc, institution: whole.institutionOf(doc._id) })));
      }
      for (const { doc, institution } of read) {
        let s = subjects.get(institution);
        if (!s) subjects.set(institution, (s = new Subjects()));
        s.add(doc.patient_id, doc._id).add(doc.doctor_id, doc._id);
      }
      for (const [institutionId, s] of subjects) {
        const why = auditPurpose(scope, institutionId);
        await audit.record(auth, req, { ...why, purpose: scope.platform ? why.purpose : 'institution_audit', resource: 'institution_appointments', route: 'GET /api/v1/admin/appointments', subjects: s });
      }
      return {
        body: docs.map((d) => appointmentRecord(d, DEFAULT_TIMEZONE, !scope.platform, institutionOf(d._id))),
        headers: contentRange('appointments', query.start, docs.length, total),
      };
    },
  });

  /** The appointment if the caller may read it through the console, with why. */
  async function readableAppointment(auth: AccessClaims, id: string) {
    const stored = await appointments.get(id);
    if (!stored) throw notFound(API_TEXTS.appointmentNotFound);
    const doc = (await withCurrentPeople([stored]))[0]!;
    if (auth.account_type === 'admin') return { doc, institution: null };
    const institution = await lookups.institutionReadingAppointment(auth.user_id, doc);
    if (!institution) throw notFound(API_TEXTS.appointmentNotFound);
    return { doc, institution };
  }

  api.route({
    method: 'get',
    path: '/admin/appointments/:id',
    summary: 'One appointment (platform admins, or members of its doctor’s institution who may read appointments)',
    tags: ['admin'],
    policy: policies.anyUser,
    params: idParams,
    response: z.object({ id: z.string() }).loose(),
    errors: [404, 503],
    handler: async ({ auth, params, req }) => {
      const { doc, institution } = await readableAppointment(auth, params.id);
      await audit.record(auth, req, {
        purpose: institution ? 'institution_audit' : 'platform_administration',
        resource: 'institution_appointments',
        route: 'GET /api/v1/admin/appointments/:id',
        institution,
        subjects: new Subjects().add(doc.patient_id, doc._id).add(doc.doctor_id, doc._id),
      });
      return { body: appointmentRecord(doc, DEFAULT_TIMEZONE, institution !== null, institution?.id ?? null) };
    },
  });

  const historyQuery = z.object({
    format: z.enum(['json', 'csv']).optional(),
    timezone_str: z.string().max(64).optional(),
  });

  async function timeline(auth: AccessClaims, id: string, req: Parameters<AccessAudit['record']>[1], route: string, zoneName: string | undefined) {
    const { doc, institution } = await readableAppointment(auth, id);
    const zone = zoneName && DateTimeZone.valid(zoneName) ? zoneName : DEFAULT_TIMEZONE;
    // Every read of a history is on the record, before anything is answered.
    const recorded = audit.record(auth, req, {
      purpose: institution ? 'institution_audit' : 'platform_administration',
      resource: 'appointment_history',
      route,
      institution,
      subjects: new Subjects().add(doc.patient_id, doc._id).add(doc.doctor_id, doc._id),
    });
    const [entries] = await Promise.all([history.find({ appointment_id: id }, { sort: { position: 1 } }), recorded]);
    const names = new Map<string, string | null>();
    // The actors, and the participants the events name (who joined or left the call).
    const people = entries.flatMap((e) => [e.actor.user_id, ...(typeof e.data.user_id === 'string' ? [e.data.user_id] : [])]);
    for (const id of people) if (!names.has(id)) names.set(id, (await users.get(id))?.name ?? null);
    const events: TimelineEntry[] = entries.map((e) => ({
      id: e.event_id,
      position: e.position,
      event_id: e.event_id,
      type: e.type,
      occurred_at: e.occurred_at,
      actor: { ...e.actor, name: names.get(e.actor.user_id) ?? null },
      correlation_id: e.correlation_id ?? null,
      description: describe(e, names.get(e.actor.user_id) ?? null, {
        zone,
        notesReadable: institution !== null,
        doctorId: doc.doctor_id,
        nameOf: (userId) => names.get(userId) ?? null,
      }),
    }));
    return { appointment_id: id, events };
  }

  const timelineSchema = z.object({
    appointment_id: z.string(),
    events: z.array(
      z.object({
        id: z.string(),
        position: z.number(),
        event_id: z.string(),
        type: z.string(),
        occurred_at: z.string(),
        actor: z.object({ user_id: z.string(), role: z.string(), name: z.string().nullable() }),
        correlation_id: z.string().nullable(),
        description: z.string(),
      }),
    ),
  });
  const csvOf = (id: string, events: TimelineEntry[]) => ({
    body: new RawBody(Buffer.from(historyCsv(events), 'utf8'), 'text/csv; charset=utf-8'),
    headers: { 'Content-Disposition': `attachment; filename="appointment-${id.replace(/[^A-Za-z0-9_-]/g, '')}-history.csv"` },
  });

  api.route({
    method: 'get',
    path: '/admin/appointments/:id/history',
    summary: "An appointment's timeline: every event with actor, role, time, correlation id and a readable line (`?format=csv` for CSV); each read is audited",
    tags: ['admin'],
    policy: policies.anyUser,
    params: idParams,
    query: historyQuery,
    response: timelineSchema,
    errors: [404, 503],
    handler: async ({ auth, params, query, req }) => {
      const result = await timeline(auth, params.id, req, 'GET /api/v1/admin/appointments/:id/history', query.timezone_str);
      if (query.format === 'csv') return csvOf(params.id, result.events) as never;
      return { body: result };
    },
  });

  api.route({
    method: 'get',
    path: '/admin/appointments/:id/history.csv',
    summary: "An appointment's timeline as CSV (time, actor, role, event, description, correlation_id, event_id); each read is audited",
    tags: ['admin'],
    policy: policies.anyUser,
    params: idParams,
    query: historyQuery.omit({ format: true }),
    errors: [404, 503],
    handler: async ({ auth, params, query, req }) => {
      const result = await timeline(auth, params.id, req, 'GET /api/v1/admin/appointments/:id/history.csv', query.timezone_str);
      return csvOf(params.id, result.events);
    },
  });

  // ---- users (platform admins) ----
  /** An operator's read of accounts (name, e-mail, phone): on each shown person's access log, the reader excepted. */
  const recordUserReads = (auth: AccessClaims, req: Parameters<AccessAudit['record']>[1], docs: UserDoc[], route: string) => {
    const subjects = new Subjects();
    for (const doc of docs) subjects.add(doc._id, 'contact_details');
    return audit.record(auth, req, { purpose: 'platform_administration', resource: 'user_accounts', route, institution: null, subjects });
  };

  api.route({
    method: 'get',
    path: '/admin/users',
    summary: 'Accounts (platform admins): filter account_type, is_active, id; newest first by default',
    tags: ['admin'],
    policy: policies.roles('admin'),
    query: listQuerySchema(
      z.object({ id: idsFilter.optional(), account_type: z.enum(['patient', 'doctor', 'admin']).optional(), is_active: z.boolean().optional() }),
      ['registered_at', 'name', 'account_type', 'id'],
      'registered_at',
    ),
    response: z.array(z.object({ id: z.string() }).loose()),
    errors: [503],
    handler: async ({ auth, query, req }) => {
      const filter: Filter = {};
      if (query.filter.id) filter._id = { $in: query.filter.id };
      if (query.filter.account_type) filter.account_type = query.filter.account_type;
      if (query.filter.is_active !== undefined) filter.active = query.filter.is_active;
      const field = query.sort.field === 'id' ? '_id' : query.sort.field;
      const [docs, total] = await Promise.all([
        users.find(filter, { sort: { [field]: query.sort.order, _id: query.sort.order }, skip: query.start, limit: query.end - query.start + 1 }),
        users.count(filter, COUNTED),
      ]);
      // One audit event per page read, naming the accounts that page showed (bounded by the page, as every list).
      await recordUserReads(auth, req, docs, 'GET /api/v1/admin/users');
      return { body: docs.map(userRecord), headers: contentRange('users', query.start, docs.length, total) };
    },
  });

  api.route({
    method: 'get',
    path: '/admin/users/:id',
    summary: 'One account (platform admins)',
    tags: ['admin'],
    policy: policies.roles('admin'),
    params: idParams,
    response: z.object({ id: z.string() }).loose(),
    errors: [404, 503],
    handler: async ({ auth, params, req }) => {
      const doc = await users.get(params.id);
      if (!doc) throw notFound(API_TEXTS.userNotFound);
      await recordUserReads(auth, req, [doc], 'GET /api/v1/admin/users/:id');
      return { body: userRecord(doc) };
    },
  });
}

/** IANA zone names luxon knows. */
const DateTimeZone = {
  valid(name: string): boolean {
    try {
      new Intl.DateTimeFormat('en', { timeZone: name });
      return true;
    } catch {
      return false;
    }
  },
};
