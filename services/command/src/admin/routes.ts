import {
  ADMIN_TEXTS,
  API_TEXTS,
  INSTITUTION_TEXTS,
  createInstitutionSchema,
  membershipAllows,
  memberId,
  notFound,
  parseMemberId,
  slugify,
  streams,
  type InstitutionAbility,
  type RecordedEvent,
  type StaffRole,
} from '@telemed/contracts';
import { HttpError, policies, reactAdminErrors, type AccessClaims, type ApiRouter } from '@telemed/platform';
import { AccessAudit, Subjects } from '@telemed/platform';
import type { Request } from 'express';
import { handleCommand } from '../decider';
import { positionHeader, requestContext, type CommandDeps } from '../context';
import { institutionDecider, membershipOf, type InstitutionState } from '../institutions/institution';
import { institutionOutlinesOf, loadInstitution } from '../institutions/load-institution';
import { addDoctor, addStaffMember, assertSlugFree, changeStaffRole, createInstitution, setDoctorActive, staffActor } from '../institutions/service';
import { handleUserCommand } from '../users/load-user';
import { findUserIdByEmail, loadUser } from '../users/service';

/**
 * The institution as its own stream says (the read model may not have caught up with the write just made): its first
 * event for what never changes, the kept outline for the rest, so the answer does not read every event since.
 */
async function institutionRecord(deps: CommandDeps, institutionId: string) {
  const stream = streams.institution(institutionId);
  const [created] = (await deps.eventStore.readStream(stream, { maxCount: 1 })) as unknown as RecordedEvent[];
  if (!created || created.type !== 'InstitutionCreated') throw notFound(INSTITUTION_TEXTS.institutionNotFound);
  const { state } = await institutionOutlinesOf(deps.eventStore).current(stream);
  if (state.status === 'none') throw notFound(INSTITUTION_TEXTS.institutionNotFound);
  const { institution_id, ...fields } = created.data;
  return { id: institution_id, ...fields, ...state.details, role_permissions: state.role_permissions, is_active: state.status === 'active', created_at: created.metadata.occurred_at };
}

type Member = { user_id: string; staff_id: string; name: string; email: string; phone: string; role: StaffRole; role_title: string | null; department: string | null; specialization: string | null; is_institution_admin: boolean };

/**
 * A member as the institution's stream holds them (active, or the one just removed). `is_active` is what the screens
 * show: a member, and not a deactivated doctor (`deactivated`).
 */
function memberRecord(institutionId: string, member: Member, isMember: boolean, deactivated = false) {
  const isActive = isMember && !deactivated;
  return {
    id: memberId(institutionId, member.user_id),
    institution_id: institutionId,
    user_id: member.user_id,
    staff_id: member.staff_id,
    name: member.name,
    email: member.email,
    phone: member.phone,
    role: member.role,
    role_title: member.role_title,
    department: member.department,
    specialization: member.specialization,
    is_active: isActive,
    deactivated,
    is_institution_admin: member.is_institution_admin,
  };
}

/** A doctor of the institution as the query side's doctors resource shows them, from the write side's streams. */
async function doctorRecord(deps: CommandDeps, institutionId: string, member: Member, deactivated: boolean) {
  const user = await loadUser(deps.eventStore, member.user_id);
  const account = user.status === 'registered' ? user : null;
  return {
    id: memberId(institutionId, member.user_id),
    institution_id: institutionId,
    doctor_id: member.user_id,
    name: account?.name ?? member.name,
    email: account?.email ?? member.email,
    phone_number: account?.phone_number ?? member.phone,
    specialty: account?.doctor?.specialty ?? member.specialization,
    qualification: account?.doctor?.qualification ?? null,
    consultation_fee: account?.doctor?.consultation_fee ?? null,
    role: member.role,
    is_active: !deactivated,
    deactivated,
    is_institution_admin: member.is_institution_admin,
  };
}

/** The member (by user id) in the state a command left, with whether they are a deactivated doctor. */
function memberIn(state: InstitutionState, userId: string) {
  if (state.status === 'none') throw notFound(ADMIN_TEXTS.memberNotFound);
  const member = [...state.staff.values()].find((m) => m.user_id === userId);
  if (!member) throw notFound(ADMIN_TEXTS.memberNotFound);
  return { member, deactivated: state.deactivated.has(member.staff_id) };
}

/** What every resource's writes share: the institution right check and the record of a person's data shown. */
type AdminAccess = {
  audit: AccessAudit;
  /** Platform admins, or members whose role in this institution grants the ability; others are told it does not exist. */
  authorize(auth: AccessClaims, institutionId: string, ability: InstitutionAbility): Promise<InstitutionState>;
  recordAnswer(auth: AccessClaims, req: Request, shown: ShownPerson): Promise<void>;
};

type ShownPerson = { userId: string; resource: 'institution_staff' | 'institution_doctors' | 'user_accounts'; route: string; institution?: { id: string; state: InstitutionState } };

function adminAccess(deps: CommandDeps): AdminAccess {
  async function authorize(auth: AccessClaims, institutionId: string, ability: InstitutionAbility): Promise<InstitutionState> {
    const { state } = await loadInstitution(deps.eventStore, institutionId);
    if (state.status === 'none') throw notFound(INSTITUTION_TEXTS.institutionNotFound);
    if (auth.account_type === 'admin') return state;
    const membership = state.status === 'active' ? membershipOf(state, auth.user_id) : null;
    if (!membership) throw notFound(INSTITUTION_TEXTS.institutionNotFound);
    if (!membershipAllows(membership, ability)) throw new HttpError(403, API_TEXTS.forbiddenRole);
    return state;
  }

  /**
   * A write whose answer shows another person's personal data (a member's or an account's name, e-mail and phone) is a
   * read of it, recorded as the console's list and show reads are (same resources and purposes). It is recorded
   * before the write: if it cannot be, the write is refused (503) with nothing changed, as a read is refused, so the
   * data is never shown off the record and a write never half happens. A write refused after it (a 409 of the decider)
   * leaves the record of an answer not given: the audit errs on the side of recording.
   */
  const audit = new AccessAudit({ eventStore: deps.eventStore, clock: deps.clock, logger: deps.logger });
  function recordAnswer(auth: AccessClaims, req: Request, shown: ShownPerson): Promise<void> {
    const subjects = new Subjects().add(shown.userId, 'contact_details');
    const { institution } = shown;
    if (!institution) return audit.record(auth, req, { purpose: 'platform_administration', resource: shown.resource, route: shown.route, institution: null, subjects });
    const why =
      auth.account_type === 'admin'
        ? { purpose: 'platform_administration' as const, institution: { id: institution.id, role: null } }
        : { purpose: 'institution_administration' as const, institution: { id: institution.id, role: membershipOf(institution.state, auth.user_id)?.role ?? null } };
    return audit.record(auth, req, { ...why, resource: shown.resource, route: shown.route, subjects });
  }

  return { audit, authorize, recordAnswer };
}

/** The member (by user id) the institution's stream holds before a write, if any. */
const currentMember = (state: InstitutionState, userId: string) => (state.status === 'none' ? undefined : [...state.staff.values()].find((m) => m.user_id === userId));

/**
 * The console's writes, `/admin/<resource>` in ra-data-simple-rest's conventions (issue 15): each answers the record.
 * Institution rights are checked on the institution's own stream (the decider's membership), as the existing
 * institution routes do; a route whose institution is in the body or a composite id checks here instead of in its policy.
 */
export function adminCommandRoutes(api: ApiRouter, deps: CommandDeps): void {
  api.router.use('/admin', reactAdminErrors);
  const access = adminAccess(deps);
  institutionRoutes(api, deps, access);
  staffRoutes(api, deps, access);
  doctorRoutes(api, deps, access);
  userRoutes(api, deps, access);
}

/** Institutions: create (platform admins), update (their managers), disband (platform admins). */
function institutionRoutes(api: ApiRouter, deps: CommandDeps, { audit, authorize }: AdminAccess): void {
  api.implement('createAdminInstitution', {
    policy: policies.roles('admin'),
    handler: async ({ body, auth, req }) => {
      const slug = body.slug ?? slugify(body.name);
      if (!createInstitutionSchema.shape.slug.safeParse(slug).success) {
        throw new HttpError(422, 'A slug cannot be derived from this name: give one (lowercase letters, digits and hyphens)');
      }
      await assertSlugFree(deps.eventStore, slug);
      // Staff whose addresses have accounts are answered as those accounts (invited, by id, or refused as the wrong kind).
      const existing = new Subjects();
      for (const email of new Set(body.staff.map((m) => m.email.toLowerCase()))) existing.add(await findUserIdByEmail(deps.eventStore, email), 'contact_details');
      await audit.record(auth, req, { purpose: 'platform_administration', resource: 'institution_staff', route: 'POST /api/v1/admin/institutions', institution: null, subjects: existing });
      const { institution_id, position } = await createInstitution(deps.eventStore, { ...body, slug }, requestContext(req, auth, deps.clock()));
      return { body: await institutionRecord(deps, institution_id), headers: positionHeader(position) };
    },
  });

  api.implement('updateAdminInstitution', {
    policy: policies.anyUser,
    handler: async ({ params, body, auth, req }) => {
      const current = await authorize(auth, params.id, 'manage_institution');
      const role_permissions =
        body.role_permissions && current.status !== 'none'
          ? { ...current.role_permissions, ...Object.fromEntries(Object.entries(body.role_permissions).map(([role, list]) => [role, [...new Set(list)]])) }
          : undefined;
      const hours_of_operation =
        body.hours_of_operation && current.status !== 'none' ? { ...current.details.hours_of_operation, ...body.hours_of_operation } : undefined;
      const result = await handleCommand(
        deps.eventStore,
        streams.institution(params.id),
        institutionDecider,
        {
          type: 'UpdateInstitution',
          data: {
            name: body.name,
            address: body.address,
            phone: body.phone,
            email: body.email?.toLowerCase(),
            hours_of_operation,
            role_permissions,
            by: staffActor(auth),
          },
        },
        requestContext(req, auth, deps.clock()),
        () => loadInstitution(deps.eventStore, params.id),
      );
      return { body: await institutionRecord(deps, params.id), headers: positionHeader(result.position) };
    },
  });

  api.implement('disbandAdminInstitution', {
    policy: policies.roles('admin'),
    handler: async ({ params, auth, req }) => {
      const result = await handleCommand(deps.eventStore, streams.institution(params.id), institutionDecider, { type: 'DisbandInstitution', data: {} }, requestContext(req, auth, deps.clock()), () =>
        loadInstitution(deps.eventStore, params.id),
      );
      return { body: await institutionRecord(deps, params.id), headers: positionHeader(result.position) };
    },
  });
}

/** Removes a member (id `<institution_id>~<user_id>`), or withdraws their invitation; `doctors` removes only a doctor. */
const removeMember =
  (deps: CommandDeps, { authorize, recordAnswer }: AdminAccess, kind: 'staff' | 'doctors') =>
  async ({ params, auth, req }: { params: { id: string }; auth: AccessClaims; req: Request }) => {
    const member = parseMemberId(params.id);
    if (!member) throw notFound(ADMIN_TEXTS.memberNotFound);
    const before = await authorize(auth, member.institution_id, 'manage_staff');
    const known =
      before.status === 'none'
        ? undefined
        : ([...before.staff.values()].find((m) => m.user_id === member.user_id) ?? [...before.invitations.values()].find((i) => i.user_id === member.user_id));
    if (known) {
      const resource = kind === 'staff' ? ('institution_staff' as const) : ('institution_doctors' as const);
      await recordAnswer(auth, req, { userId: known.user_id, resource, route: `DELETE /api/v1/admin/${kind}/:id`, institution: { id: member.institution_id, state: before } });
    }
    const result = await handleCommand(
      deps.eventStore,
      streams.institution(member.institution_id),
      institutionDecider,
      { type: 'RemoveStaff', data: { user_id: member.user_id, doctors_only: kind === 'doctors', by: staffActor(auth) } },
      requestContext(req, auth, deps.clock()),
      () => loadInstitution(deps.eventStore, member.institution_id),
    );
    if (!known) throw notFound(ADMIN_TEXTS.memberNotFound);
    return { body: memberRecord(member.institution_id, known, false), headers: positionHeader(result.position) };
  };

/** Staff: add (or invite), remove (or withdraw the invitation), change a member's role. */
function staffRoutes(api: ApiRouter, deps: CommandDeps, access: AdminAccess): void {
  const { authorize, recordAnswer } = access;
  api.implement('addAdminStaffMember', {
    policy: policies.anyUser,
    handler: async ({ body, auth, req }) => {
      const state = await authorize(auth, body.institution_id, 'manage_staff');
      const { institution_id, account_type, ...person } = body;
      // The answer is what the caller typed, plus, for an account that already holds the address (it is invited), its
      // id: that much of someone else's data is read. A new account's data is the caller's own input.
      const shown = (userId: string) => recordAnswer(auth, req, { userId, resource: 'institution_staff', route: 'POST /api/v1/admin/staff', institution: { id: institution_id, state } });
      const existing = await findUserIdByEmail(deps.eventStore, body.email);
      if (existing) await shown(existing);
      const result = await addStaffMember(deps.eventStore, institution_id, { ...person, role: account_type }, staffActor(auth), requestContext(req, auth, deps.clock()));
      if (result.status === 'invited' && result.member.user_id !== existing) await shown(result.member.user_id);
      return {
        body: { ...memberRecord(body.institution_id, result.member, result.status === 'success'), status: result.status, invitation_id: result.invitation_id },
        headers: positionHeader(result.position),
      };
    },
  });

  api.implement('removeAdminStaffMember', { policy: policies.anyUser, handler: removeMember(deps, access, 'staff') });

  api.implement('changeAdminStaffRole', {
    policy: policies.anyUser,
    handler: async ({ params, body, auth, req }) => {
      const target = parseMemberId(params.id);
      if (!target) throw notFound(ADMIN_TEXTS.memberNotFound);
      const before = await authorize(auth, target.institution_id, 'manage_staff');
      const shown = () => recordAnswer(auth, req, { userId: target.user_id, resource: 'institution_staff', route: 'PUT /api/v1/admin/staff/:id', institution: { id: target.institution_id, state: before } });
      // Not a member yet: the decider refuses the change, and nothing is shown (unless they joined meanwhile: below).
      const recorded = currentMember(before, target.user_id) !== undefined;
      if (recorded) await shown();
      const result = await changeStaffRole(
        deps.eventStore,
        target.institution_id,
        { user_id: target.user_id, role: body.role, by: staffActor(auth) },
        requestContext(req, auth, deps.clock()),
      );
      const { member, deactivated } = memberIn(result.state, target.user_id);
      if (!recorded) await shown();
      return { body: memberRecord(target.institution_id, member, true, deactivated), headers: positionHeader(result.position) };
    },
  });
}

/** Doctors: remove (or withdraw the invitation), (de)activate, add (or invite). */
function doctorRoutes(api: ApiRouter, deps: CommandDeps, access: AdminAccess): void {
  const { authorize, recordAnswer } = access;
  api.implement('removeAdminDoctor', { policy: policies.anyUser, handler: removeMember(deps, access, 'doctors') });

  api.implement('setAdminDoctorActive', {
    policy: policies.anyUser,
    handler: async ({ params, body, auth, req }) => {
      const target = parseMemberId(params.id);
      if (!target) throw notFound(ADMIN_TEXTS.memberNotFound);
      const before = await authorize(auth, target.institution_id, 'manage_staff');
      const shown = () => recordAnswer(auth, req, { userId: target.user_id, resource: 'institution_doctors', route: 'PUT /api/v1/admin/doctors/:id', institution: { id: target.institution_id, state: before } });
      const recorded = currentMember(before, target.user_id) !== undefined;
      if (recorded) await shown();
      const result = await setDoctorActive(deps.eventStore, target.institution_id, target.user_id, body.is_active, requestContext(req, auth, deps.clock()));
      const { member, deactivated } = memberIn(result.state, target.user_id);
      if (!recorded) await shown();
      return { body: await doctorRecord(deps, target.institution_id, member, deactivated), headers: positionHeader(result.position) };
    },
  });

  api.implement('addAdminDoctor', {
    policy: policies.anyUser,
    handler: async ({ body, auth, req }) => {
      const state = await authorize(auth, body.institution_id, 'manage_staff');
      // As for staff: an existing doctor's account (invited) is read, by its id; a new one is the caller's own input.
      const shown = (userId: string) => recordAnswer(auth, req, { userId, resource: 'institution_doctors', route: 'POST /api/v1/admin/doctors', institution: { id: body.institution_id, state } });
      const existing = await findUserIdByEmail(deps.eventStore, body.email);
      if (existing) await shown(existing);
      const input = {
        name: body.name,
        email: body.email,
        phone_number: body.phone_number,
        // The seeds' defaults for an empty field.
        specialty: body.specialty || 'General Medicine',
        qualification: body.qualification || 'MD',
        consultation_fee: body.consultation_fee ?? 100,
        appointment_duration_minutes: 30 as const,
      };
      const result = await addDoctor(deps.eventStore, body.institution_id, input, staffActor(auth), requestContext(req, auth, deps.clock()));
      if (result.status === 'invited' && result.doctor_id !== existing) await shown(result.doctor_id);
      return {
        body: {
          id: memberId(body.institution_id, result.doctor_id),
          institution_id: body.institution_id,
          doctor_id: result.doctor_id,
          name: input.name,
          email: input.email.toLowerCase(),
          phone_number: input.phone_number,
          specialty: input.specialty,
          qualification: input.qualification,
          consultation_fee: input.consultation_fee,
          is_active: result.status === 'success',
          status: result.status,
          invitation_id: result.invitation_id,
        },
        headers: positionHeader(result.position),
      };
    },
  });
}

/** Users (platform admins): (de)activate an account. */
function userRoutes(api: ApiRouter, deps: CommandDeps, { recordAnswer }: AdminAccess): void {
  api.implement('setAdminUserActive', {
    policy: policies.roles('admin'),
    handler: async ({ params, body, auth, req }) => {
      if (params.id === auth.user_id && !body.is_active) throw new HttpError(409, 'You cannot deactivate your own account');
      const shown = () => recordAnswer(auth, req, { userId: params.id, resource: 'user_accounts', route: 'PUT /api/v1/admin/users/:id' });
      // An account that is not there (or erased) is answered 404 below, showing nothing.
      const recorded = (await loadUser(deps.eventStore, params.id)).status === 'registered';
      if (recorded) await shown();
      const command = body.is_active
        ? { type: 'ReactivateUser' as const, data: {} as Record<string, never> }
        : { type: 'DeactivateUser' as const, data: { reason: 'deactivated by an administrator' } };
      const result = await handleUserCommand(deps.eventStore, params.id, command, requestContext(req, auth, deps.clock()));
      if (result.state.status !== 'registered') throw notFound(API_TEXTS.userNotFound);
      if (!recorded) await shown();
      const s = result.state;
      return {
        body: { id: s.user_id, name: s.name, email: s.email, phone_number: s.phone_number, account_type: s.account_type, is_active: s.active, erased: false },
        headers: positionHeader(result.position),
      };
    },
  });
}
