import { useQuery } from '@tanstack/react-query';
import { call } from '../lib/client';
import { homePathFor, isAdmin, isDoctor, useSession } from '../lib/session';
import type { MessageId } from '../i18n/useT';

/** The header's word for each role (its message id). */
export const ROLE_LABELS = {
  doctor: 'shell.roleDoctor',
  patient: 'shell.rolePatient',
  platformAdmin: 'shell.rolePlatformAdmin',
  institutionAdmin: 'shell.roleInstitutionAdmin',
} as const satisfies Record<string, MessageId>;

/** Whether the signed-in person administers an institution (any failure means not). */
export function useInstitutionAdminStatus(): { institutionAdmin: boolean; loading: boolean } {
  const session = useSession();
  const { data, isLoading } = useQuery({
    queryKey: ['institutions', 'check-admin-status'],
    queryFn: () => call('checkAdminStatus').catch(() => ({ is_institution_admin: false })),
    enabled: Boolean(session),
    staleTime: 60_000,
  });
  return { institutionAdmin: data?.is_institution_admin === true, loading: Boolean(session) && isLoading };
}

/**
 * What the signed-in person is, as the header says it, and where their work is: doctors and patients keep the
 * seeds' labels; platform admins manage institutions; a clinic's admin (a staff account) manages their clinic.
 * `labelId`: the role's message id. `console`: whether the react-admin console (/admin) has anything for them
 * (institution admins, platform operators).
 */
export function useRole() {
  const session = useSession();
  const user = session?.user;
  const { institutionAdmin, loading } = useInstitutionAdminStatus();
  const home = homePathFor(user);
  const console = institutionAdmin || isAdmin(user);
  if (isDoctor(user)) return { labelId: ROLE_LABELS.doctor, home, institutionAdmin, console, loading };
  if (isAdmin(user)) return { labelId: ROLE_LABELS.platformAdmin, home, institutionAdmin, console, loading };
  // A clinic's admin lands on /home like every non-doctor (seed 000's guards), where /home shows their institution.
  if (institutionAdmin) return { labelId: ROLE_LABELS.institutionAdmin, home, institutionAdmin, console, loading };
  return { labelId: ROLE_LABELS.patient, home, institutionAdmin, console, loading };
}
