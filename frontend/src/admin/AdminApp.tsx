import { useEffect, useState, type ReactNode } from 'react';
import { Admin, AppBar, Layout, Resource, TitlePortal } from 'react-admin';
import { Navigate, Link as RouterLink } from 'react-router';
import { Box, CircularProgress, Link, Paper, ThemeProvider, Typography } from '@mui/material';
import type { AdminPermissions } from '@telemed/contracts/admin';
import { homePathFor, useSession } from '../lib/session';
import { theme } from '../app/theme';
import { authProvider, dataProvider, loadPermissions } from './providers';
import { adminTheme } from './theme';
import { StillUpdating } from './StillUpdating';
import { institutions } from './institutions';
import { staff } from './staff';
import { doctors } from './doctors';
import { appointments } from './appointments';
import { users } from './users';
import { projections } from './projections';
import { PRODUCT_NAME } from '@telemed/contracts/constants';

/** The page's title is its one h1 (react-admin draws it as a plain h6), so screen readers find where they are. */
const AdminAppBar = () => (
  <AppBar>
    <TitlePortal component="h1" />
    <StillUpdating />
  </AppBar>
);
export const AdminLayout = ({ children }: { children: ReactNode }) => <Layout appBar={AdminAppBar}>{children}</Layout>;

/** What a patient or doctor sees at /admin: not a blank console, but where they are and the way back. */
function NotForYou({ accountType, home }: { accountType: string; home: string }) {
  const who = accountType === 'doctor' ? 'a doctor' : 'a patient';
  return (
    <ThemeProvider theme={theme}>
      <Box component="main" sx={{ minHeight: '100vh', bgcolor: 'background.default', display: 'grid', placeItems: 'center', p: 2 }}>
        <Paper variant="outlined" sx={{ p: { xs: 3, sm: 4 }, maxWidth: 480 }}>
          <Typography variant="h5" component="h1" gutterBottom>
            The console is for administrators
          </Typography>
          <Typography sx={{ mb: 2 }}>
            You are signed in as {who}. The console is where institution administrators and the platform's operators manage
            institutions, staff and appointments; there is nothing in it for your account.
          </Typography>
          <Link component={RouterLink} to={home}>
            Back to your home page
          </Link>
        </Paper>
      </Box>
    </ThemeProvider>
  );
}

/**
 * The react-admin console at /admin (issue 15), loaded lazily: on the app's session and token renewal; each resource
 * shows only what the server's permissions (GET /api/v1/admin/permissions) allow; someone with none is told so.
 */
export function AdminApp() {
  const session = useSession();
  const [permissions, setPermissions] = useState<AdminPermissions | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (!session) return;
    let live = true;
    loadPermissions()
      .then((p) => live && setPermissions(p))
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [session]);
  if (!session) return <Navigate to="/login" replace />;
  if (failed) return <NotForYou accountType={session.user.account_type} home={homePathFor(session.user)} />;
  if (!permissions)
    return (
      <Box sx={{ display: 'grid', placeItems: 'center', minHeight: '100vh' }}>
        <CircularProgress aria-label="Loading the console" />
      </Box>
    );
  if (permissions.kind === 'none') return <NotForYou accountType={session.user.account_type} home={homePathFor(session.user)} />;
  return (
    <Admin
      basename="/admin"
      dataProvider={dataProvider}
      authProvider={authProvider}
      title={`${PRODUCT_NAME} console`}
      layout={AdminLayout}
      theme={adminTheme}
      requireAuth
      disableTelemetry
    >
      <Resource name="institutions" {...institutions} />
      <Resource name="staff" options={{ label: 'Staff' }} {...staff} />
      <Resource name="doctors" {...doctors} />
      <Resource name="appointments" {...appointments} />
      <Resource name="users" {...users} />
      <Resource name="projections" {...projections} />
    </Admin>
  );
}
