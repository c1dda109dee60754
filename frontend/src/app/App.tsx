import { Suspense, lazy, useEffect, useMemo, type ComponentType, type ReactNode } from 'react';
import { BrowserRouter, Outlet, Route, Routes, useNavigate } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Box, CircularProgress, CssBaseline, ThemeProvider } from '@mui/material';
import { ToastProvider, useToasts } from '../lib/toasts';
import { ConfirmProvider } from '../lib/confirm';
import { onOwnWrite, setSessionExpiredHandler } from '../lib/api';
import { sessionStore } from '../lib/session';
import { RealtimeProvider, LOGOUT_DELAY_MS } from './RealtimeProvider';
import { Layout } from './Layout';
import { AdminGuard, DoctorHomeGuard, PatientHomeGuard, RequireAuth, RootRoute } from './guards';
import { NotYetAvailable } from './NotYetAvailable';
import { NotFound } from './NotFound';
import { theme } from './theme';
import { LoginPage } from '../features/auth/LoginPage';
import { AuthCallback } from '../features/auth/AuthCallback';
import { SupportLogin } from '../features/auth/SupportLogin';
import { WelcomePage } from '../features/public/WelcomePage';

/** A page loaded on first visit: the sign-in, welcome and public doctor pages do not carry the signed-in screens. */
function lazyPage<K extends string>(load: () => Promise<Record<NoInfer<K>, ComponentType>>, name: K) {
  return lazy(async () => ({ default: (await load())[name] }));
}
// The public doctor page (profile, tabs, slot picker) loads on its own, so /login and / stay small.
const DoctorLandingPage = lazyPage(() => import('../features/public/DoctorLandingPage'), 'DoctorLandingPage');
const ProfilePage = lazyPage(() => import('../features/auth/ProfilePage'), 'ProfilePage');
const HomePage = lazyPage(() => import('../features/patient/HomePage'), 'HomePage');
const ConfirmAppointment = lazyPage(() => import('../features/patient/ConfirmAppointment'), 'ConfirmAppointment');
const MyAppointments = lazyPage(() => import('../features/patient/MyAppointments'), 'MyAppointments');
const DoctorHome = lazyPage(() => import('../features/doctor/DoctorHome'), 'DoctorHome');
const InstitutionAdmin = lazyPage(() => import('../features/institution/InstitutionAdmin'), 'InstitutionAdmin');
const InstitutionsPage = lazyPage(() => import('../features/institution/InstitutionsPage'), 'InstitutionsPage');
const InvitationPage = lazyPage(() => import('../features/institution/Invitations'), 'InvitationPage');

const pageLoading = (
  <Box sx={{ display: 'grid', placeItems: 'center', minHeight: '50vh' }} role="progressbar" aria-label="Loading">
    <CircularProgress />
  </Box>
);


/** Session expired (a 401 from the API): an error toast, then logout after 2 s. */
function SessionExpiry() {
  const toasts = useToasts();
  const navigate = useNavigate();
  useEffect(() => {
    let pending = false;
    setSessionExpiredHandler(() => {
      if (pending) return;
      pending = true;
      toasts.show({ type: 'error', title: 'Session expired. Please log in again.', duration: 5000 });
      setTimeout(() => {
        pending = false;
        sessionStore.clear();
        navigate('/');
      }, LOGOUT_DELAY_MS);
    });
  }, [toasts, navigate]);
  return null;
}

const signedIn = (page: ReactNode, guard?: (children: ReactNode) => ReactNode) => (
  <RequireAuth>
    <Layout>{guard ? guard(page) : page}</Layout>
  </RequireAuth>
);

function Shell() {
  return (
    <RealtimeProvider>
      <SessionExpiry />
      <Outlet />
    </RealtimeProvider>
  );
}

export function App() {
  const queryClient = useMemo(() => new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 5000 } } }), []);
  useEffect(() => onOwnWrite(() => void queryClient.invalidateQueries()), [queryClient]);
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <QueryClientProvider client={queryClient}>
        <ToastProvider>
          <ConfirmProvider>
          <BrowserRouter>
            <Suspense fallback={pageLoading}>
            <Routes>
              <Route element={<Shell />}>
                <Route path="/" element={<RootRoute><LoginPage /></RootRoute>} />
                <Route path="/login" element={<LoginPage />} />
                <Route path="/support" element={<SupportLogin />} />
                <Route path="/auth/callback" element={<AuthCallback />} />
                <Route path="/welcome" element={<WelcomePage />} />
                <Route path="/home" element={signedIn(<HomePage />, (c) => <PatientHomeGuard>{c}</PatientHomeGuard>)} />
                <Route path="/doctor-home" element={signedIn(<DoctorHome />, (c) => <DoctorHomeGuard>{c}</DoctorHomeGuard>)} />
                <Route path="/institutions" element={signedIn(<InstitutionsPage />, (c) => <AdminGuard>{c}</AdminGuard>)} />
                <Route path="/institution-admin" element={signedIn(<InstitutionAdmin />)} />
                <Route path="/my-appointments" element={signedIn(<MyAppointments />)} />
                <Route path="/confirm-appointment" element={signedIn(<ConfirmAppointment />)} />
                <Route path="/video-call" element={signedIn(<NotYetAvailable title="Video consultation" />)} />
                <Route path="/profile" element={signedIn(<ProfilePage />)} />
                <Route path="/invitations/:id" element={signedIn(<InvitationPage />)} />
                <Route path="/:doctorId" element={<DoctorLandingPage />} />
                <Route path="*" element={<NotFound />} />
              </Route>
            </Routes>
            </Suspense>
          </BrowserRouter>
          </ConfirmProvider>
        </ToastProvider>
      </QueryClientProvider>
    </ThemeProvider>
  );
}
