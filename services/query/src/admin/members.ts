import { ADMIN_TEXTS, DOCTOR_ROLES, INSTITUTION_TEXTS, memberId, notFound, parseMemberId, type ADMIN_MEMBER_SORT, type adminMemberFilter, type z } from '@telemed/contracts';
import { RequestValidationError, Subjects, type AccessAudit, type AccessClaims, type Filter, type ReadCollection } from '@telemed/platform';
import type { StaffDoc } from '../projections';
import { shownActive } from '../institutions/views';
import { COUNTED, byKeys, contentRange, type ListQuery } from './ra';
import { auditPurpose, readable, refuseIfNone, type AdminContext, type Scope } from './scope';

type MemberFilter = z.output<typeof adminMemberFilter>;
type MemberSort = (typeof ADMIN_MEMBER_SORT)[number];

type MemberQuery = ListQuery<MemberFilter, MemberSort>;
/** A page of members, how many the list has, and the members it read (whom the audit names). */
type MembersPage = { docs: StaffDoc[]; total: number; read: StaffDoc[] };

/** The pages of an institution's members (staff and doctors alike) the console's lists read. */
function memberPages(staff: ReadCollection<StaffDoc>) {
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
  function currentMembersFilter(f: MemberFilter, doctorsOnly: boolean): Filter | null {
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
  async function membersById(ids: string[], allowed: Set<string> | null, f: MemberFilter, doctorsOnly: boolean): Promise<StaffDoc[]> {
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
  async function membersByEntries(institutionIds: string[], f: MemberFilter, doctorsOnly: boolean): Promise<StaffDoc[]> {
    // Without is_active, or true: the current members. With false: every entry, and the latest decides.
    const activeFilter = f.is_active === false ? {} : { is_active: true };
    const found = await Promise.all(institutionIds.map((id) => staff.find({ institution_id: id, ...activeFilter })));
    return latestMembers(found.flat(), f, doctorsOnly);
  }

  /** One entry per (institution, person) among those the filter keeps, the latest, shown active or not as the filter asks. */
  function latestMembers(found: StaffDoc[], f: MemberFilter, doctorsOnly: boolean): StaffDoc[] {
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

  return { membersPage };
}

/** The members a page showed, on each one's access log under the institution they were read in. */
async function recordMemberReads(ctx: AdminContext, auth: AccessClaims, req: Parameters<AccessAudit['record']>[1], scope: Scope, docs: StaffDoc[], resource: 'institution_staff' | 'institution_doctors', route: string) {
  const byInstitution = new Map<string, Subjects>();
  for (const d of docs) {
    let subjects = byInstitution.get(d.institution_id);
    if (!subjects) byInstitution.set(d.institution_id, (subjects = new Subjects()));
    subjects.add(d.user_id, 'contact_details');
  }
  for (const [institutionId, subjects] of byInstitution) await ctx.audit.record(auth, req, { ...auditPurpose(scope, institutionId), resource, route, subjects });
}

type ReadRequest = Parameters<AccessAudit['record']>[1];

/**
 * The list and the show of an institution's members: `staff` (everyone, with their roles) or `doctors` (its doctors, as
 * their accounts show them), each id `<institution_id>~<user_id>`. Their handlers, which staff.ts and doctors.ts
 * register as their routes of the table.
 */
export function memberReads<R extends { id: string }>(ctx: AdminContext, kind: 'staff' | 'doctors', toRecords: (docs: StaffDoc[]) => Promise<R[]>) {
  const { staff } = ctx.lookups;
  const { membersPage } = memberPages(staff);
  const doctorsOnly = kind === 'doctors';
  const resource = doctorsOnly ? ('institution_doctors' as const) : ('institution_staff' as const);
  return {
    list: async ({ auth, query, req }: { auth: AccessClaims; query: MemberQuery; req: ReadRequest }) => {
      const scope = await ctx.scopeOf(auth);
      const { docs, total, read } = await membersPage(scope, query, doctorsOnly);
      await recordMemberReads(ctx, auth, req, scope, read, resource, `GET /api/v1/admin/${kind}`);
      return { body: await toRecords(docs), headers: contentRange(kind, query.start, docs.length, total) };
    },
    show: async ({ auth, params, req }: { auth: AccessClaims; params: { id: string }; req: ReadRequest }) => {
      const scope = await ctx.scopeOf(auth);
      const member = parseMemberId(params.id);
      const allowed = readable(scope, 'read');
      if (!member || (allowed && !allowed.has(member.institution_id))) throw notFound(ADMIN_TEXTS.memberNotFound);
      const entries = await staff.find({ institution_id: member.institution_id, user_id: member.user_id }, { sort: { added_position: -1 }, limit: 1 });
      const doc = entries[0];
      if (!doc || (doctorsOnly && !DOCTOR_ROLES.includes(doc.role))) throw notFound(ADMIN_TEXTS.memberNotFound);
      await recordMemberReads(ctx, auth, req, scope, [doc], resource, `GET /api/v1/admin/${kind}/:id`);
      return { body: (await toRecords([doc]))[0]! };
    },
  };
}
