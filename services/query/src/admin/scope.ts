import { API_TEXTS, membershipAllows, type InstitutionAbility, type InstitutionMembership } from '@telemed/contracts';
import { HttpError, type AccessAudit, type AccessClaims, type ReadStore } from '@telemed/platform';
import type { InstitutionDoc } from '../projections';
import { institutionLookups } from '../institutions/lookups';

/** Who is asking, as the console sees it: a platform admin, or a member of some institutions. */
export type Scope = { platform: true; memberships: [] } | { platform: false; memberships: Array<{ institution: InstitutionDoc; membership: InstitutionMembership }> };

/** What each resource of the console reads with: the read models, the audit, the institutions' lookups, and who is asking. */
export interface AdminContext {
  readStore: ReadStore;
  audit: AccessAudit;
  lookups: ReturnType<typeof institutionLookups>;
  scopeOf(auth: AccessClaims): Promise<Scope>;
}

export function adminContext(readStore: ReadStore, audit: AccessAudit): AdminContext {
  const lookups = institutionLookups(readStore);
  return {
    readStore,
    audit,
    lookups,
    scopeOf: async (auth) =>
      auth.account_type === 'admin' ? { platform: true, memberships: [] } : { platform: false, memberships: await lookups.membershipsOf(auth.user_id) },
  };
}

/** Institutions whose data the caller may read for this ability; null means all (platform admins). */
export const readable = (scope: Scope, ability: InstitutionAbility): Set<string> | null =>
  scope.platform ? null : new Set(scope.memberships.filter((m) => membershipAllows(m.membership, ability)).map((m) => m.institution._id));

export const refuseIfNone = (ids: Set<string> | null) => {
  if (ids && ids.size === 0) throw new HttpError(403, API_TEXTS.forbiddenRole);
};

export const auditPurpose = (scope: Scope, institutionId: string | null) => {
  const member = scope.platform ? undefined : scope.memberships.find((m) => m.institution._id === institutionId);
  return member
    ? { purpose: 'institution_administration' as const, institution: { id: member.institution._id, role: member.membership.role } }
    : { purpose: 'platform_administration' as const, institution: institutionId ? { id: institutionId, role: null } : null };
};
