import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { isAdmin, isDoctor, useSession } from '../lib/session';
import { useInstitutionAdminStatus } from './useRole';

/**
 * The patient home's guard: doctors and platform admins go to their own homes (seed 000's guards). A clinic's admin
 * (a staff account with the institution flag) lands on /home like every non-doctor, and /home shows them their
 * institution (`clinicAdmin`): their work is the clinic, not a patient's list of doctors.
 */
export function PatientHomeGuard({ children, clinicAdmin }: { children: ReactNode; clinicAdmin: ReactNode }) {
  const session = useSession();
  const { institutionAdmin, loading } = useInstitutionAdminStatus();
  if (isDoctor(session?.user)) return <Navigate to="/doctor-home" replace />;
  if (isAdmin(session?.user)) return <Navigate to="/institutions" replace />;
  if (loading) return null;
  if (institutionAdmin) return <>{clinicAdmin}</>;
  return <>{children}</>;
}
