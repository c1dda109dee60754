import { match } from 'ts-pattern';
import {
  INSTITUTION_TEXTS,
  conflict,
  invalid,
  notFound,
  type DomainEventOf,
  type EventData,
  type InstitutionMembership,
  type Permission,
  type StaffRole,
} from '@telemed/contracts';
import type { Decider } from '../decider';

export type InstitutionEvent = DomainEventOf<'InstitutionCreated' | 'InstitutionStaffAdded' | 'InstitutionStaffRemoved' | 'InstitutionDisbanded'>;
export type StaffMember = Omit<EventData<'InstitutionStaffAdded'>, 'institution_id'>;

export type InstitutionState =
  | { status: 'none' }
  | {
      status: 'active' | 'disbanded';
      institution_id: string;
      role_permissions: Record<string, Permission[]>;
      /** Active staff by staff id. */
      staff: ReadonlyMap<string, StaffMember>;
    };

export type InstitutionCommand =
  | { type: 'CreateInstitution'; data: { institution: Omit<EventData<'InstitutionCreated'>, never>; staff: StaffMember[] } }
  | { type: 'AddStaff'; data: { member: StaffMember } }
  | { type: 'RemoveStaff'; data: { user_id: string; doctors_only: boolean } }
  | { type: 'DisbandInstitution'; data: Record<string, never> };

export function evolveInstitution(state: InstitutionState, event: InstitutionEvent): InstitutionState {
  return match(event)
    .with({ type: 'InstitutionCreated' }, ({ data }): InstitutionState => ({
      status: 'active',
      institution_id: data.institution_id,
      role_permissions: data.role_permissions,
      staff: new Map(),
    }))
    .with({ type: 'InstitutionStaffAdded' }, ({ data: { institution_id: _i, ...member } }): InstitutionState => {
      void _i;
      return state.status === 'none' ? state : { ...state, staff: new Map([...state.staff, [member.staff_id, member]]) };
    })
    .with({ type: 'InstitutionStaffRemoved' }, ({ data }): InstitutionState => {
      if (state.status === 'none') return state;
      const staff = new Map(state.staff);
      staff.delete(data.staff_id);
      return { ...state, staff };
    })
    .with({ type: 'InstitutionDisbanded' }, (): InstitutionState => (state.status === 'none' ? state : { ...state, status: 'disbanded' }))
    .exhaustive();
}

/** The user's standing in the institution, for access policies. */
export function membershipOf(state: InstitutionState, userId: string): InstitutionMembership | null {
  if (state.status !== 'active') return null;
  const member = [...state.staff.values()].find((m) => m.user_id === userId);
  if (!member) return null;
  return { role: member.role, is_institution_admin: member.is_institution_admin, permissions: state.role_permissions[member.role] ?? [] };
}

const isDoctorRole = (role: StaffRole) => role === 'DOCTOR' || role === 'SUPER_DOCTOR';

function active(state: InstitutionState) {
  if (state.status === 'none') throw notFound(INSTITUTION_TEXTS.institutionNotFound);
  if (state.status === 'disbanded') throw conflict(INSTITUTION_TEXTS.disbanded);
  return state;
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
        const unique = new Map(data.staff.map((m) => [m.user_id, m]));
        return [
          { type: 'InstitutionCreated', data: data.institution },
          ...[...unique.values()].map((m): InstitutionEvent => ({ type: 'InstitutionStaffAdded', data: { institution_id: id, ...m } })),
        ];
      })
      .with({ type: 'AddStaff' }, ({ data: { member } }): InstitutionEvent[] => {
        const current = active(state);
        const existing = [...current.staff.values()].find((m) => m.user_id === member.user_id);
        if (existing) {
          if (existing.role === member.role) return [];
          throw conflict(`This person is already on the staff as ${existing.role}`);
        }
        return [{ type: 'InstitutionStaffAdded', data: { institution_id: current.institution_id, ...member } }];
      })
      .with({ type: 'RemoveStaff' }, ({ data }): InstitutionEvent[] => {
        const current = active(state);
        const member = [...current.staff.values()].find((m) => m.user_id === data.user_id && (!data.doctors_only || isDoctorRole(m.role)));
        if (!member) throw notFound(INSTITUTION_TEXTS.staffNotFound);
        const admins = [...current.staff.values()].filter((m) => m.is_institution_admin);
        if (member.is_institution_admin && admins.length === 1) throw conflict(INSTITUTION_TEXTS.lastAdmin);
        return [{ type: 'InstitutionStaffRemoved', data: { institution_id: current.institution_id, staff_id: member.staff_id, user_id: member.user_id } }];
      })
      .with({ type: 'DisbandInstitution' }, (): InstitutionEvent[] => {
        if (state.status === 'none') throw notFound(INSTITUTION_TEXTS.institutionNotFound);
        return state.status === 'disbanded' ? [] : [{ type: 'InstitutionDisbanded', data: { institution_id: state.institution_id } }];
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
