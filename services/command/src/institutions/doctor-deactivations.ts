import type { DomainEventOf } from '@telemed/contracts';
import { isDoctorRole } from './institution';

type DeactivationEvent = DomainEventOf<
  | 'InstitutionCreated'
  | 'InstitutionDisbanded'
  | 'InstitutionDoctorDeactivated'
  | 'InstitutionDoctorActivated'
  | 'InstitutionStaffRemoved'
  | 'InstitutionStaffRoleChanged'
>;

/**
 * An institution's stream folded to the one fact booking needs: which of its doctors (by user id) it has deactivated,
 * while it is active. The same rules as the institution's own fold (its staff by staff id, each deactivation by staff id), without its staff's personal
 * details, so a fold of it may be kept (see StreamFolds).
 */
export interface DoctorDeactivations {
  active: boolean;
  users: ReadonlySet<string>;
}

function without(users: ReadonlySet<string>, userId: string): ReadonlySet<string> {
  if (!users.has(userId)) return users;
  const rest = new Set(users);
  rest.delete(userId);
  return rest;
}

export function evolveDeactivations(state: DoctorDeactivations, event: { type: string; data: unknown }): DoctorDeactivations {
  const known = event as DeactivationEvent;
  switch (known.type) {
    case 'InstitutionCreated':
      return { active: true, users: new Set() };
    case 'InstitutionDisbanded':
      return { ...state, active: false };
    case 'InstitutionDoctorDeactivated':
      return { ...state, users: new Set([...state.users, known.data.user_id]) };
    case 'InstitutionDoctorActivated':
    case 'InstitutionStaffRemoved':
      return { ...state, users: without(state.users, known.data.user_id) };
    case 'InstitutionStaffRoleChanged':
      // Deactivation is a doctor's: a member who is no longer a doctor is not a deactivated one.
      return isDoctorRole(known.data.role) ? state : { ...state, users: without(state.users, known.data.user_id) };
    default:
      return state;
  }
}

export const doctorDeactivationsFold = {
  initialState: (): DoctorDeactivations => ({ active: false, users: new Set() }),
  evolve: evolveDeactivations,
};

export function deactivatesDoctor(state: DoctorDeactivations, userId: string): boolean {
  return state.active && state.users.has(userId);
}
