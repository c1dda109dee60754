import { membershipAllows, type AdminAction, type AdminPermissions, type AdminResource, type InstitutionAbility } from '@telemed/contracts';
import { policies, type AccessClaims, type ApiRouter } from '@telemed/platform';
import type { AdminContext, Scope } from './scope';

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
        // The message log (issue 34): the whole of it, an appointment's on its page, and a failed message sent again.
        messages: ['list', 'show', 'edit'],
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
  if (can('read_appointments')) {
    resources.appointments = ['list', 'show', 'export'];
    // The messages of an appointment they can see, on its page (issue 34); not 'list': the whole log is the operators'.
    resources.messages = ['show'];
  }
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

/** The console's canAccess: what the caller may do there. */
export function permissionRoutes(api: ApiRouter, ctx: AdminContext): void {
  api.implement('getAdminPermissions', {
    policy: policies.anyUser,
    handler: async ({ auth }) => ({ body: permissionsOf(auth, await ctx.scopeOf(auth)) }),
  });
}
