import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { isAdmin, isDoctor, useSession } from '../lib/session';
import { useInstitutionAdminStatus } from './useRole';

/** The patient home's guard: doctors, platform admins and a clinic's admin go to their own homes. */
export function PatientHomeGuard({ children }: { children: ReactNode }) {
  const session = useSession();
  const { institutionAdmin, loading } = useInstitutionAdminStatus();
  if (isDoctor(session?.user)) return <Navigate to="/doctor-home" replace />;
  if (isAdmin(session?.user)) return <Navigate to="/institutions" replace />;
  // A clinic's admin signs in with a staff account: their work is their institution, not the patient home.
  if (loading) return null;
  if (institutionAdmin) return <Navigate to="/institution-admin" replace />;
  return <>{children}</>;
}
