import { match } from 'ts-pattern';
import {
  API_TEXTS,
  BOOKING_RULE_LIMITS,
  INSTITUTION_TEXTS,
  bookingRulesProblem,
  conflict,
  forbidden,
  invalid,
  notFound,
  type DomainEventOf,
  type EventData,
  membershipAllows,
  STAFF_ROLES,
  type InstitutionAbility,
  type InstitutionMembership,
  type Permission,
  type StaffRole,
  type ClinicBookingRules,
  type NoShowPolicy,
  DEFAULT_NO_SHOW_BLOCK_MONTHS,
} from '@telemed/contracts';
import type { Decider } from '../decider';

export type InstitutionEvent = DomainEventOf<
  | 'InstitutionCreated'
  | 'InstitutionStaffAdded'
  | 'InstitutionStaffRemoved'
  | 'InstitutionDisbanded'
  | 'InstitutionUpdated'
  | 'InstitutionStaffInvited'
  | 'InstitutionInvitationAccepted'
  | 'InstitutionInvitationDeclined'
  | 'InstitutionInvitationRevoked'
  | 'InstitutionDoctorDeactivated'
  | 'InstitutionDoctorActivated'
  | 'InstitutionStaffRoleChanged'
  | 'InstitutionBookingRulesSet'
>;
export type StaffMember = Omit<EventData<'InstitutionStaffAdded'>, 'institution_id'>;
export type Invitation = Omit<EventData<'InstitutionStaffInvited'>, 'institution_id'>;

/**
 * Someone the institution wants on its staff. Whether their account existed before is the handler's finding: an
 * account created just now has no history and joins directly; an existing one is only invited (its patients and
 * notes are its owner's until they accept).
 */
/** Who asks for a change to the staff: a platform admin, or a member of the institution. */
export interface StaffActor {
  user_id: string;
  platform_admin: boolean;
}

export interface StaffCandidate {
  member: StaffMember;
  existing_account: boolean;
  /** Used when the candidate is invited. */
  invitation_id: string;
}

export type InstitutionState =
  | { status: 'none' }
  | {
      status: 'active' | 'disbanded';
      institution_id: string;
      role_permissions: Record<string, Permission[]>;
      /** The editable details as last recorded. */
      details: InstitutionDetails;
      /** Active staff by staff id. */
      staff: ReadonlyMap<string, StaffMember>;
      /** Pending invitations by invitation id. */
      invitations: ReadonlyMap<string, Invitation>;
      /** Staff ids of the doctors deactivated in this institution. */
      deactivated: ReadonlySet<string>;
      /** The clinic's default booking rules (issue 35); null until it sets them. */
      booking_rules: ClinicBookingRules | null;
    };

export type InstitutionDetails = Pick<EventData<'InstitutionCreated'>, 'name' | 'address' | 'phone' | 'email' | 'hours_of_operation'>;

export type InstitutionCommand =
  | { type: 'CreateInstitution'; data: { institution: Omit<EventData<'InstitutionCreated'>, never>; staff: StaffCandidate[] } }
  | { type: 'AddStaff'; data: StaffCandidate & { by: StaffActor } }
  /** Removes an active member, or withdraws the pending invitation of someone who is not one. */
  | { type: 'RemoveStaff'; data: { user_id: string; doctors_only: boolean; by: StaffActor } }
  | { type: 'RevokeInvitation'; data: { invitation_id: string; by: StaffActor } }
  /** Only the invitee answers an invitation: `user_id` is the caller. */
  | { type: 'AcceptInvitation'; data: { invitation_id: string; user_id: string } }
  | { type: 'DeclineInvitation'; data: { invitation_id: string; user_id: string } }
  | { type: 'DisbandInstitution'; data: Record<string, never> }
  /** Activates or deactivates one of the institution's doctors (`user_id`); asking for the state it is in changes nothing. */
  | { type: 'SetDoctorActive'; data: { user_id: string; active: boolean } }
  /**
   * Gives a member another role. `by` is who asks (a platform admin, or a member: their own standing is checked here);
   * `doctor_account` says whether the member's account is a doctor's (the handler's finding), which doctor roles need.
   */
  | { type: 'ChangeStaffRole'; data: { user_id: string; role: StaffRole; doctor_account: boolean; by: StaffActor } }
  /** The console's edit: only fields that differ from what is recorded become the event. */
  | {
      type: 'UpdateInstitution';
      /** `by`: who asks (absent for the system's own edits, which the seeds' pages and the CLI make). */
      data: Omit<EventData<'InstitutionUpdated'>, 'institution_id'> & { by?: { user_id: string; platform_admin: boolean } };
    }
  /** The clinic's default booking rules (issue 35), all of them at once; who may is the route's policy. */
  | { type: 'SetBookingRules'; data: ClinicBookingRules };

export function evolveInstitution(state: InstitutionState, event: InstitutionEvent): InstitutionState {
  return match(event)
    .with({ type: 'InstitutionCreated' }, ({ data }): InstitutionState => ({
      status: 'active',
      institution_id: data.institution_id,
      role_permissions: data.role_permissions,
      details: { name: data.name, address: data.address, phone: data.phone, email: data.email, hours_of_operation: data.hours_of_operation },
      staff: new Map(),
      invitations: new Map(),
      deactivated: new Set(),
      booking_rules: null,
    }))
    .with({ type: 'InstitutionStaffAdded' }, ({ data: { institution_id: _i, ...member } }): InstitutionState => {
      void _i;
      return state.status === 'none' ? state : { ...state, staff: new Map([...state.staff, [member.staff_id, member]]) };
    })
    .with({ type: 'InstitutionStaffRemoved' }, ({ data }): InstitutionState => {
      if (state.status === 'none') return state;
      const staff = new Map(state.staff);
      staff.delete(data.staff_id);
      const deactivated = new Set(state.deactivated);
      deactivated.delete(data.staff_id);
      return { ...state, staff, deactivated };
    })
    .with({ type: 'InstitutionDoctorDeactivated' }, ({ data }): InstitutionState =>
      state.status === 'none' ? state : { ...state, deactivated: new Set([...state.deactivated, data.staff_id]) },
    )
    .with({ type: 'InstitutionDoctorActivated' }, ({ data }): InstitutionState => {
      if (state.status === 'none') return state;
      const deactivated = new Set(state.deactivated);
      deactivated.delete(data.staff_id);
      return { ...state, deactivated };
    })
    .with({ type: 'InstitutionStaffRoleChanged' }, ({ data }): InstitutionState => {
      if (state.status === 'none') return state;
      const member = state.staff.get(data.staff_id);
      if (!member) return state;
      const staff = new Map(state.staff);
      staff.set(data.staff_id, { ...member, role: data.role, is_institution_admin: data.is_institution_admin });
      // Deactivation is a doctor's: a member who is no longer a doctor is not a deactivated one.
      const deactivated = new Set(state.deactivated);
      if (!isDoctorRole(data.role)) deactivated.delete(data.staff_id);
      return { ...state, staff, deactivated };
    })
    .with({ type: 'InstitutionBookingRulesSet' }, ({ data }): InstitutionState => (state.status === 'none' ? state : { ...state, booking_rules: clinicRulesOf(data) }))
    .with({ type: 'InstitutionDisbanded' }, (): InstitutionState => (state.status === 'none' ? state : { ...state, status: 'disbanded' }))
    .with({ type: 'InstitutionUpdated' }, ({ data: { institution_id: _i, role_permissions, ...details } }): InstitutionState => {
      void _i;
      if (state.status === 'none') return state;
      const defined = Object.fromEntries(Object.entries(details).filter(([, v]) => v !== undefined)) as Partial<InstitutionDetails>;
      return { ...state, details: { ...state.details, ...defined }, role_permissions: role_permissions ?? state.role_permissions };
    })
    .with({ type: 'InstitutionStaffInvited' }, ({ data: { institution_id: _i, ...invitation } }): InstitutionState => {
      void _i;
      return state.status === 'none' ? state : { ...state, invitations: new Map([...state.invitations, [invitation.invitation_id, invitation]]) };
    })
    .with(
      { type: 'InstitutionInvitationAccepted' },
      { type: 'InstitutionInvitationDeclined' },
      { type: 'InstitutionInvitationRevoked' },
      ({ data }): InstitutionState => {
        if (state.status === 'none') return state;
        const invitations = new Map(state.invitations);
        invitations.delete(data.invitation_id);
        return { ...state, invitations };
      },
    )
    .exhaustive();
}

/** The rules as the event records them. */
export function clinicRulesOf(data: EventData<'InstitutionBookingRulesSet'>): ClinicBookingRules {
  const limit = data.no_show_limit ?? 0;
  const noShowPolicy = limit > 0 ? { limit, blockMonths: data.no_show_block_months ?? DEFAULT_NO_SHOW_BLOCK_MONTHS } : null;
  return { minNoticeMinutes: data.min_notice_minutes, maxReschedules: data.max_reschedules, lateCancellation: data.late_cancellation, noShowPolicy };
}

/** What a standing is read from: the decider's state, or a fold of it without personal fields (load-institution.ts). */
export type Memberships =
  | { status: 'none' }
  | {
      status: 'active' | 'disbanded';
      role_permissions: Record<string, Permission[]>;
      staff: ReadonlyMap<string, Pick<StaffMember, 'staff_id' | 'user_id' | 'role' | 'is_institution_admin'>>;
      deactivated: ReadonlySet<string>;
    };

/** The user's standing in the institution, for access policies: a deactivated doctor is a member without rights. */
export function membershipOf(state: Memberships, userId: string): InstitutionMembership | null {
  if (state.status !== 'active') return null;
  const member = [...state.staff.values()].find((m) => m.user_id === userId);
  if (!member) return null;
  if (state.deactivated.has(member.staff_id)) return { role: member.role, is_institution_admin: false, permissions: [] };
  return { role: member.role, is_institution_admin: member.is_institution_admin, permissions: state.role_permissions[member.role] ?? [] };
}

export function isDoctorRole(role: StaffRole) {
  return role === 'DOCTOR' || role === 'SUPER_DOCTOR';
}

const ABILITIES: readonly InstitutionAbility[] = ['read', 'manage_staff', 'read_appointments', 'manage_institution'];

/** Does `role` allow nothing that `holder` may not do (no ability the server checks, no admin flag they lack)? */
function withinRights(state: Pick<Current, 'role_permissions'>, role: StaffRole, holder: InstitutionMembership): boolean {
  if (role === 'ADMIN' && !holder.is_institution_admin) return false;
  const rights: InstitutionMembership = { role, is_institution_admin: role === 'ADMIN', permissions: state.role_permissions[role] ?? [] };
  return ABILITIES.every((ability) => !membershipAllows(rights, ability) || membershipAllows(holder, ability));
}

/**
 * Why `by` may not add, invite, remove or withdraw the invitation of someone in `role`, or null if they may: a member
 * who is not the institution's admin acts only on roles within their own rights (an ADMIN is the admins' alone), as
 * for a change of role; else one could make an admin of a second address of theirs, and that admin remove the others.
 */
export function staffChangeRefusal(state: Memberships, by: StaffActor, role: StaffRole): string | null {
  if (by.platform_admin || state.status !== 'active') return null;
  const asker = membershipOf(state, by.user_id);
  if (!asker) return INSTITUTION_TEXTS.institutionNotFound;
  if (!membershipAllows(asker, 'manage_staff')) return INSTITUTION_TEXTS.roleBeyondYours;
  if (!asker.is_institution_admin && !withinRights(state, role, asker)) return INSTITUTION_TEXTS.roleBeyondYours;
  return null;
}

function requireStaffChange(state: Current, by: StaffActor, role: StaffRole): void {
  const refusal = staffChangeRefusal(state, by, role);
  if (refusal === INSTITUTION_TEXTS.institutionNotFound) throw notFound(refusal);
  if (refusal) throw forbidden(refusal);
}

function active(state: InstitutionState) {
  if (state.status === 'none') throw notFound(INSTITUTION_TEXTS.institutionNotFound);
  if (state.status === 'disbanded') throw conflict(INSTITUTION_TEXTS.disbanded);
  return state;
}

type Current = ReturnType<typeof active>;

/** The pending invitation addressed to this user; anyone else is told it does not exist. */
function invitationFor(state: InstitutionState, invitationId: string, userId: string | null): Invitation {
  const invitation = state.status === 'none' ? undefined : state.invitations.get(invitationId);
  if (!invitation || (userId !== null && invitation.user_id !== userId)) throw notFound(INSTITUTION_TEXTS.invitationNotFound);
  return invitation;
}

const pendingFor = (state: Current, userId: string) => [...state.invitations.values()].find((i) => i.user_id === userId);

/** A new account joins at once; an existing one is invited. */
function join(institutionId: string, candidate: StaffCandidate): InstitutionEvent {
  return candidate.existing_account
    ? { type: 'InstitutionStaffInvited', data: { institution_id: institutionId, invitation_id: candidate.invitation_id, ...candidate.member } }
    : { type: 'InstitutionStaffAdded', data: { institution_id: institutionId, ...candidate.member } };
}

const revoked = (state: Current, invitation: Invitation, reason: 'withdrawn' | 'disbanded'): InstitutionEvent => ({
  type: 'InstitutionInvitationRevoked',
  data: { institution_id: state.institution_id, invitation_id: invitation.invitation_id, user_id: invitation.user_id, reason },
});

function memberFrom({ invitation_id: _i, ...member }: Invitation): StaffMember {
  void _i;
  return member;
}

/** A clinic's default booking rules (issue 35): within bounds, and recorded only when they change. */
function decideBookingRules(data: ClinicBookingRules, state: InstitutionState): InstitutionEvent[] {
  const current = active(state);
  const problem = bookingRulesProblem(data);
  const { minNoticeMinutes: notice, maxReschedules: moves } = BOOKING_RULE_LIMITS;
  if (problem === 'notice') throw invalid(API_TEXTS.bookingRulesNoticeInvalid(String(notice.max), String(notice.step)));
  if (problem === 'reschedules') throw invalid(API_TEXTS.bookingRulesReschedulesInvalid(String(moves.max)));
  const before = current.booking_rules;
  const samePolicy = (a: NoShowPolicy | null, b: NoShowPolicy | null) => (a === null || b === null ? a === b : a.limit === b.limit && a.blockMonths === b.blockMonths);
  if (
    before &&
    before.minNoticeMinutes === data.minNoticeMinutes &&
    before.maxReschedules === data.maxReschedules &&
    before.lateCancellation === data.lateCancellation &&
    samePolicy(before.noShowPolicy, data.noShowPolicy)
  ) {
    return [];
  }
  return [
    {
      type: 'InstitutionBookingRulesSet',
      data: {
        institution_id: current.institution_id,
        min_notice_minutes: data.minNoticeMinutes,
        max_reschedules: data.maxReschedules,
        late_cancellation: data.lateCancellation,
        no_show_limit: data.noShowPolicy?.limit ?? 0,
        no_show_block_months: data.noShowPolicy?.blockMonths ?? DEFAULT_NO_SHOW_BLOCK_MONTHS,
      },
    },
  ];
}
export const institutionDecider: Decider<InstitutionState, InstitutionCommand, InstitutionEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve: evolveInstitution,
  decide: (command, state) =>
    match(command)
      .with({ type: 'CreateInstitution' }, ({ data }): InstitutionEvent[] => {
        if (state.status !== 'none') throw conflict('This institution already exists');
        if (data.staff.length === 0) throw invalid(INSTITUTION_TEXTS.atLeastOneStaff);
        const id = data.institution.institution_id;
        const unique = new Map(data.staff.map((c) => [c.member.user_id, c]));
        return [{ type: 'InstitutionCreated', data: data.institution }, ...[...unique.values()].map((c) => join(id, c))];
      })
      .with({ type: 'AddStaff' }, ({ data: candidate }): InstitutionEvent[] => {
        const current = active(state);
        const { member } = candidate;
        requireStaffChange(current, candidate.by, member.role);
        const existing = [...current.staff.values()].find((m) => m.user_id === member.user_id) ?? pendingFor(current, member.user_id);
        if (existing) {
          if (existing.role === member.role) return [];
          throw conflict(`This person is already on the staff as ${existing.role}`);
        }
        return [join(current.institution_id, candidate)];
      })
      .with({ type: 'RevokeInvitation' }, ({ data }): InstitutionEvent[] => {
        const current = active(state);
        const invitation = invitationFor(current, data.invitation_id, null);
        requireStaffChange(current, data.by, invitation.role);
        return [revoked(current, invitation, 'withdrawn')];
      })
      .with({ type: 'AcceptInvitation' }, ({ data }): InstitutionEvent[] => {
        const invitation = invitationFor(state, data.invitation_id, data.user_id);
        const current = active(state);
        const answer = { institution_id: current.institution_id, invitation_id: invitation.invitation_id, user_id: invitation.user_id };
        const alreadyMember = [...current.staff.values()].some((m) => m.user_id === invitation.user_id);
        return [
          { type: 'InstitutionInvitationAccepted', data: answer },
          ...(alreadyMember ? [] : [{ type: 'InstitutionStaffAdded', data: { institution_id: current.institution_id, ...memberFrom(invitation) } } as const]),
        ];
      })
      .with({ type: 'DeclineInvitation' }, ({ data }): InstitutionEvent[] => {
        const invitation = invitationFor(state, data.invitation_id, data.user_id);
        const current = active(state);
        return [{ type: 'InstitutionInvitationDeclined', data: { institution_id: current.institution_id, invitation_id: invitation.invitation_id, user_id: invitation.user_id } }];
      })
      .with({ type: 'RemoveStaff' }, ({ data }): InstitutionEvent[] => {
        const current = active(state);
        const member = [...current.staff.values()].find((m) => m.user_id === data.user_id && (!data.doctors_only || isDoctorRole(m.role)));
        const invitation = member ? undefined : pendingFor(current, data.user_id);
        if (invitation && (!data.doctors_only || isDoctorRole(invitation.role))) {
          requireStaffChange(current, data.by, invitation.role);
          return [revoked(current, invitation, 'withdrawn')];
        }
        if (!member) throw notFound(INSTITUTION_TEXTS.staffNotFound);
        // Leaving takes no rights: anyone may remove themselves (the last admin still may not).
        if (data.by.user_id !== member.user_id) requireStaffChange(current, data.by, member.role);
        const admins = [...current.staff.values()].filter((m) => m.is_institution_admin);
        if (member.is_institution_admin && admins.length === 1) throw conflict(INSTITUTION_TEXTS.lastAdmin);
        return [{ type: 'InstitutionStaffRemoved', data: { institution_id: current.institution_id, staff_id: member.staff_id, user_id: member.user_id } }];
      })
      .with({ type: 'SetDoctorActive' }, ({ data }): InstitutionEvent[] => {
        const current = active(state);
        const member = [...current.staff.values()].find((m) => m.user_id === data.user_id);
        if (!member) throw notFound(INSTITUTION_TEXTS.staffNotFound);
        if (!isDoctorRole(member.role)) throw conflict(INSTITUTION_TEXTS.notADoctor);
        if (current.deactivated.has(member.staff_id) !== data.active) return [];
        const ids = { institution_id: current.institution_id, staff_id: member.staff_id, user_id: member.user_id };
        return [{ type: data.active ? 'InstitutionDoctorActivated' : 'InstitutionDoctorDeactivated', data: ids }];
      })
      .with({ type: 'ChangeStaffRole' }, ({ data }): InstitutionEvent[] => {
        const current = active(state);
        const member = [...current.staff.values()].find((m) => m.user_id === data.user_id);
        if (!member) throw notFound(INSTITUTION_TEXTS.staffNotFound);
        if (member.role === data.role) return [];
        if (!data.by.platform_admin) {
          const asker = membershipOf(current, data.by.user_id);
          if (!asker) throw notFound(INSTITUTION_TEXTS.institutionNotFound);
          const currentRights = { role: member.role, is_institution_admin: member.is_institution_admin, permissions: current.role_permissions[member.role] ?? [] };
          // Nobody raises themselves: their own new role may only take rights away.
          if (data.by.user_id === member.user_id && !withinRights(current, data.role, currentRights)) throw forbidden(INSTITUTION_TEXTS.ownRole);
          // Nor acts beyond their own rights: the member's role and the new one are both within the asker's.
          if (!membershipAllows(asker, 'manage_staff')) throw forbidden(INSTITUTION_TEXTS.roleBeyondYours);
          if (!asker.is_institution_admin && !(withinRights(current, member.role, asker) && withinRights(current, data.role, asker))) {
            throw forbidden(INSTITUTION_TEXTS.roleBeyondYours);
          }
        }
        if (isDoctorRole(data.role) && !data.doctor_account) throw conflict(INSTITUTION_TEXTS.notADoctorAccount);
        const admins = [...current.staff.values()].filter((m) => m.is_institution_admin);
        if (member.is_institution_admin && data.role !== 'ADMIN' && admins.length === 1) throw conflict(INSTITUTION_TEXTS.lastAdmin);
        return [
          {
            type: 'InstitutionStaffRoleChanged',
            data: {
              institution_id: current.institution_id,
              staff_id: member.staff_id,
              user_id: member.user_id,
              role: data.role,
              previous_role: member.role,
              is_institution_admin: data.role === 'ADMIN',
            },
          },
        ];
      })
      .with({ type: 'UpdateInstitution' }, ({ data }): InstitutionEvent[] => {
        const current = active(state);
        const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
        const changes: Omit<EventData<'InstitutionUpdated'>, 'institution_id'> = {};
        for (const key of ['name', 'address', 'phone', 'email', 'hours_of_operation'] as const) {
          if (data[key] !== undefined && !same(data[key], current.details[key])) Object.assign(changes, { [key]: data[key] });
        }
        if (data.role_permissions !== undefined && !same(data.role_permissions, current.role_permissions)) {
          // A member who manages the institution without being its admin gives no role a right they lack themselves
          // (else one could raise their own role through its permissions, which ChangeStaffRole refuses).
          const asker = data.by && !data.by.platform_admin ? membershipOf(current, data.by.user_id) : null;
          if (asker && !asker.is_institution_admin) {
            for (const role of STAFF_ROLES) {
              const before = { role, is_institution_admin: false, permissions: current.role_permissions[role] ?? [] };
              const after = { role, is_institution_admin: false, permissions: data.role_permissions[role] ?? [] };
              const gained = ABILITIES.filter((ability) => membershipAllows(after, ability) && !membershipAllows(before, ability));
              if (gained.some((ability) => !membershipAllows(asker, ability))) throw forbidden(INSTITUTION_TEXTS.permissionsBeyondYours);
            }
          }
          changes.role_permissions = data.role_permissions;
        }
        if (Object.keys(changes).length === 0) return [];
        return [{ type: 'InstitutionUpdated', data: { institution_id: current.institution_id, ...changes } }];
      })
      .with({ type: 'SetBookingRules' }, ({ data }): InstitutionEvent[] => decideBookingRules(data, state))
      .with({ type: 'DisbandInstitution' }, (): InstitutionEvent[] => {
        if (state.status === 'none') throw notFound(INSTITUTION_TEXTS.institutionNotFound);
        if (state.status === 'disbanded') return [];
        return [
          ...[...state.invitations.values()].map((i) => revoked(state, i, 'disbanded')),
          { type: 'InstitutionDisbanded', data: { institution_id: state.institution_id } },
        ];
      })
      .exhaustive(),
};

export type SlugEvent = DomainEventOf<'InstitutionSlugClaimed'>;
export const slugDecider: Decider<{ institution_id: string | null }, { type: 'ClaimSlug'; data: { slug: string; institution_id: string; holder_exists: boolean } }, SlugEvent> = {
  initialState: () => ({ institution_id: null }),
  evolve: (_state, event) => ({ institution_id: event.data.institution_id }),
  decide: (command, state) => {
    if (state.institution_id === command.data.institution_id) return [];
    // A slug whose institution was never written (a crash between the two appends) may be taken over.
    if (state.institution_id !== null && command.data.holder_exists) throw conflict(INSTITUTION_TEXTS.slugTaken);
    return [{ type: 'InstitutionSlugClaimed', data: { slug: command.data.slug, institution_id: command.data.institution_id } }];
  },
};
