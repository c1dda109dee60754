import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { homePathFor, isAdmin, isDoctor, sessionStore, useSession } from '../lib/session';

/** The seeds' guards: unauthenticated users go to /login; each home sends other roles to theirs (the patient home's is in PatientHomeGuard.tsx, with the queries it needs). */
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
