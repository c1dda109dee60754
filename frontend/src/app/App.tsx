import { Suspense, lazy, useEffect, useState, type ComponentType, type ReactNode } from 'react';
import { Outlet, Route, RouterProvider, createBrowserRouter, createRoutesFromElements, useNavigate } from 'react-router';
import { Box, Button, CircularProgress, CssBaseline, ThemeProvider, Typography } from '@mui/material';
import { ToastProvider, useToasts } from '../lib/toasts';
import { ConfirmProvider } from '../lib/confirm';
import { UnsavedChangesProvider } from '../lib/unsavedChanges';
import { setSessionExpiredHandler } from '../lib/api';
import { sessionStore } from '../lib/session';
import { RealtimeProvider, LOGOUT_DELAY_MS } from './RealtimeProvider';
import { AdminGuard, DoctorHomeGuard, RequireAuth, RootRoute } from './guards';
import { theme } from './theme';
import { I18nProvider } from '../i18n/I18nProvider';
import { useT } from '../i18n/useT';
import { LoginPage } from '../features/auth/LoginPage';
import { isRegisteredDoctorPage } from '../features/public/earlyProfile';

/**
 * A page loaded on first visit. Only the sign-in page (/ and /login) is in the first download: on Fast 3G every
 * 18 KB costs 100 ms before the first paint, so the signed-in shell (app bar, menus, tooltips), the support sign-in
 * (text fields, selects), the welcome and doctor pages each come in their own chunk, fetched with the modules they
 * need in one round trip.
 */
function lazyPage<K extends string, P extends object = object>(load: () => Promise<Record<NoInfer<K>, ComponentType<P>>>, name: K) {
  let loading: Promise<Record<K, ComponentType<P>>> | undefined;
  // Memoised, and forgotten on failure so that a page that could not load offline is tried again.
  const preload = () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
  return Object.assign(
    lazy(async () => ({ default: (await preload())[name] })),
    { preload },
  );
}
type Preloadable = { preload: () => Promise<unknown> };

/**
 * Starts loading every lazy piece of a route at once. Nested lazy components would otherwise load one after the
 * other (the query layer, then the app bar, then the page), each costing a round trip.
 */
function Preload({ modules, children }: { modules: Preloadable[]; children: ReactNode }) {
  for (const module of modules) void module.preload().catch(() => {}); // the lazy component reports a failure
  return <>{children}</>;
}

const QueryLayer = lazyPage<'QueryLayer', { children: ReactNode }>(() => import('./QueryLayer'), 'QueryLayer');
const PatientHomeGuard = lazyPage<'PatientHomeGuard', { children: ReactNode; clinicAdmin: ReactNode }>(() => import('./PatientHomeGuard'), 'PatientHomeGuard');
const Layout = lazyPage<'Layout', { children: ReactNode }>(() => import('./Layout'), 'Layout');
// The consultation (lobby, call, summary); LiveKit's client is a further chunk, fetched only for LiveKit calls.
const VideoCallPage = lazyPage(() => import('../features/video/VideoCallPage'), 'VideoCallPage');
const NotFound = lazyPage(() => import('./NotFound'), 'NotFound');
const AuthCallback = lazyPage(() => import('../features/auth/AuthCallback'), 'AuthCallback');
const SupportLogin = lazyPage(() => import('../features/auth/SupportLogin'), 'SupportLogin');
const WelcomePage = lazyPage(() => import('../features/public/WelcomePage'), 'WelcomePage');
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
// The react-admin console (issue 15): its own chunk, loaded only at /admin.
const AdminApp = lazyPage(() => import('../admin/AdminApp'), 'AdminApp');
// The public prescription check behind an e-prescription's QR code (issue 14).
const VerifyPage = lazyPage(() => import('../features/records/VerifyPage'), 'VerifyPage');
// A published blog post (issue 16), readable without signing in.
const BlogPostPage = lazyPage(() => import('../features/blog/BlogPostPage'), 'BlogPostPage');
// Development only (issue 34): the messages the outbox holds in place of e-mail, SMS and WhatsApp.
const DevOutboxPage = lazyPage(() => import('../features/auth/DevOutboxPage'), 'DevOutboxPage');

/**
 * Loads the page modules of a page whose HTML came prerendered (/welcome, a registered doctor's page: see
 * vite.config.ts), so that the first render shows the page itself rather than the loading spinner in place of the
 * prerendered copy. Their files are already on their way (the page's HTML preloads them).
 */
export function preloadPrerenderedPage(pathname: string): Promise<unknown> {
  if (pathname === '/welcome') return WelcomePage.preload();
  if (isRegisteredDoctorPage(pathname)) return Promise.all([QueryLayer.preload(), DoctorLandingPage.preload()]);
  return Promise.resolve();
}

function PageLoading() {
  const t = useT();
  return (
    <Box sx={{ display: 'grid', placeItems: 'center', minHeight: '50vh' }} role="progressbar" aria-label={t('shell.loading')}>
      <CircularProgress />
    </Box>
  );
}


/** Session expired (a 401 from the API): an error toast, then logout after 2 s. */
function SessionExpiry() {
  const t = useT();
  // The words, not `t` (a new function each render): the handler is set again only when the language changes.
  const expired = t('shell.sessionExpired');
  const toasts = useToasts();
  const navigate = useNavigate();
  useEffect(() => {
    let pending = false;
    setSessionExpiredHandler(() => {
      if (pending) return;
      pending = true;
      toasts.show({ type: 'error', title: expired, duration: 5000 });
      setTimeout(() => {
        pending = false;
        sessionStore.clear();
        navigate('/');
      }, LOGOUT_DELAY_MS);
    });
  }, [toasts, navigate, expired]);
  return null;
}

/** A page reading through the query cache, with the lazy pieces it needs (`modules`) loaded side by side. */
const withQueries = (page: ReactNode, modules: Preloadable[]) => (
  <Preload modules={[QueryLayer, ...modules]}>
    <QueryLayer>{page}</QueryLayer>
  </Preload>
);

const signedIn = (page: ReactNode, modules: Preloadable[], guard?: (children: ReactNode) => ReactNode) => (
  <RequireAuth>{withQueries(<Layout>{guard ? guard(page) : page}</Layout>, [Layout, ...modules])}</RequireAuth>
);

function Shell() {
  return (
    <RealtimeProvider>
      <SessionExpiry />
      <Outlet />
    </RealtimeProvider>
  );
}

/** What a page that failed to draw shows (a chunk that could not load twice, a bug): where, and a way on. */
function PageError() {
  const t = useT();
  return (
    <Box component="main" sx={{ display: 'grid', placeItems: 'center', minHeight: '50vh', p: 2, textAlign: 'center' }}>
      <Box>
        <Typography variant="h5" component="h1" gutterBottom>
          {t('shell.pageError')}
        </Typography>
        <Button variant="contained" onClick={() => window.location.reload()}>
          {t('shell.loadAgain')}
        </Button>
      </Box>
    </Box>
  );
}

/** Every page: loading pieces show a spinner; unsaved input anywhere is asked about before another page opens. */
function Root() {
  return (
    <UnsavedChangesProvider>
      <Suspense fallback={<PageLoading />}>
        <Outlet />
      </Suspense>
    </UnsavedChangesProvider>
  );
}

/** The route table. A data router (not BrowserRouter): its navigation blocker asks before unsaved input is left. */
const routes = createRoutesFromElements(
  <Route element={<Root />} errorElement={<PageError />}>
    <Route path="/admin/*" element={<Suspense fallback={null}><AdminApp /></Suspense>} />
    <Route element={<Shell />}>
      <Route path="/" element={<RootRoute><LoginPage /></RootRoute>} />
      <Route path="/login" element={<LoginPage />} />
      <Route path="/support" element={<SupportLogin />} />
      <Route path="/auth/callback" element={<AuthCallback />} />
      <Route path="/welcome" element={<WelcomePage />} />
      <Route path="/home" element={signedIn(<HomePage />, [HomePage, PatientHomeGuard], (c) => <PatientHomeGuard clinicAdmin={<InstitutionAdmin />}>{c}</PatientHomeGuard>)} />
      <Route path="/doctor-home" element={signedIn(<DoctorHome />, [DoctorHome], (c) => <DoctorHomeGuard>{c}</DoctorHomeGuard>)} />
      <Route path="/institutions" element={signedIn(<InstitutionsPage />, [InstitutionsPage], (c) => <AdminGuard>{c}</AdminGuard>)} />
      <Route path="/institution-admin" element={signedIn(<InstitutionAdmin />, [InstitutionAdmin])} />
      <Route path="/my-appointments" element={signedIn(<MyAppointments />, [MyAppointments])} />
      <Route path="/confirm-appointment" element={signedIn(<ConfirmAppointment />, [ConfirmAppointment])} />
      <Route path="/video-call" element={signedIn(<VideoCallPage />, [VideoCallPage])} />
      <Route path="/profile" element={signedIn(<ProfilePage />, [ProfilePage])} />
      <Route path="/invitations/:id" element={signedIn(<InvitationPage />, [InvitationPage])} />
      <Route path="/verify/:code" element={withQueries(<VerifyPage />, [VerifyPage])} />
      <Route path="/blog/:slug" element={withQueries(<BlogPostPage />, [BlogPostPage])} />
      <Route path="/dev/outbox" element={withQueries(<DevOutboxPage />, [DevOutboxPage])} />
      <Route path="/:doctorId" element={withQueries(<DoctorLandingPage />, [DoctorLandingPage])} />
      <Route path="*" element={<NotFound />} />
    </Route>
  </Route>,
);

export function App() {
  // Made on the first render (not on import): it reads the browser's location and history then.
  const [router] = useState(() => createBrowserRouter(routes));
  return (
    <I18nProvider>
      <ThemeProvider theme={theme}>
        <CssBaseline />
        <ToastProvider>
          <ConfirmProvider>
            <RouterProvider router={router} />
          </ConfirmProvider>
        </ToastProvider>
      </ThemeProvider>
    </I18nProvider>
  );
}
