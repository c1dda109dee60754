import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { homePathFor, isAdmin, isDoctor, sessionStore, useSession } from '../lib/session';
import { useInstitutionAdminStatus } from './useRole';

/** The seeds' guards: unauthenticated users go to /login; each home sends other roles to theirs. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  if (!session) {
    // Right after a logout the seeds send people to /; otherwise to /login, remembering where they were going.
    if (sessionStore.loggedOut) return <Navigate to="/" replace />;
    return <Navigate to="/login" replace state={{ from: location.pathname + location.search }} />;
  }
  return <>{children}</>;
}

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

export function DoctorHomeGuard({ children }: { children: ReactNode }) {
  const session = useSession();
  if (!isDoctor(session?.user)) return <Navigate to={isAdmin(session?.user) ? '/institutions' : '/home'} replace />;
  return <>{children}</>;
}

export function AdminGuard({ children }: { children: ReactNode }) {
  const session = useSession();
  if (!isAdmin(session?.user)) return <Navigate to={isDoctor(session?.user) ? '/doctor-home' : '/home'} replace />;
  return <>{children}</>;
}

/** `/`: signed-in users go to their home, others see the sign-in page. */
export function RootRoute({ children }: { children: ReactNode }) {
  const session = useSession();
  if (session) return <Navigate to={homePathFor(session.user)} replace />;
  return <>{children}</>;
}
