import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Admin, AppBar, Layout, Resource, TitlePortal } from 'react-admin';
import { Navigate, Link as RouterLink } from 'react-router';
import { Box, CircularProgress, Link, Paper, ThemeProvider, Typography } from '@mui/material';
import type { AdminPermissions } from '@telemed/contracts/admin';
import { homePathFor, useSession } from '../lib/session';
import { theme } from '../app/theme';
import { authProvider, dataProvider, loadPermissions } from './providers';
import { adminThemeIn } from './theme';
import { StillUpdating } from './StillUpdating';
import { institutions } from './institutions';
import { staff } from './staff';
import { doctors } from './doctors';
import { appointments } from './appointments';
import { users } from './users';
import { messages } from './messages';
import { projections } from './projections';
import { PRODUCT_NAME } from '@telemed/contracts/constants';
import { useT } from '../i18n/useT';
import { useConsoleLanguage } from './i18nProvider';

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
  const t = useT();
  return (
    <ThemeProvider theme={theme}>
      <Box component="main" sx={{ minHeight: '100vh', bgcolor: 'background.default', display: 'grid', placeItems: 'center', p: 2 }}>
        <Paper variant="outlined" sx={{ p: { xs: 3, sm: 4 }, maxWidth: 480 }}>
          <Typography variant="h5" component="h1" gutterBottom>
            {t('admin.notForYouTitle')}
          </Typography>
          <Typography sx={{ mb: 2 }}>{t('admin.notForYouBody', { accountType: accountType === 'doctor' ? 'doctor' : 'patient' })}</Typography>
          <Link component={RouterLink} to={home}>
            {t('admin.backHome')}
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
  const t = useT();
  // The console speaks the app's language (its i18nProvider on the admin catalogue) and follows a change of it.
  const { i18nProvider, store } = useConsoleLanguage();
  // Made again only when the language's messages change (t itself is new each render).
  const { intl } = t;
  const theme = useMemo(() => adminThemeIn((type) => intl.formatMessage({ id: `admin.ra.navigation.${type}` })), [intl]);
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
        <CircularProgress aria-label={t('admin.loadingConsole')} />
      </Box>
    );
  if (permissions.kind === 'none') return <NotForYou accountType={session.user.account_type} home={homePathFor(session.user)} />;
  return (
    <Admin
      basename="/admin"
      dataProvider={dataProvider}
      authProvider={authProvider}
      i18nProvider={i18nProvider}
      store={store}
      title={t('admin.consoleTitle', { product: PRODUCT_NAME })}
      layout={AdminLayout}
      theme={theme}
      requireAuth
      disableTelemetry
    >
      <Resource name="institutions" {...institutions} />
      <Resource name="staff" {...staff} />
      <Resource name="doctors" {...doctors} />
      <Resource name="appointments" {...appointments} />
      <Resource name="users" {...users} />
      <Resource name="messages" {...messages} />
      <Resource name="projections" {...projections} />
    </Admin>
  );
}
