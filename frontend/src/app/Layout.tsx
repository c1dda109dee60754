import type { ReactNode } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { AppBar, Box, Button, Toolbar, Typography, useMediaQuery, useTheme } from '@mui/material';
import { call } from '../lib/client';
import { browserZone } from '../lib/time';
import { NAV_PLACES, allDoctorsPath } from './navigation';
import { isDoctor, sessionStore, useSession } from '../lib/session';
import { useRole } from './useRole';
import { useAskToLeave } from '../lib/unsavedChanges';
import { PRODUCT_NAME } from '@telemed/contracts/constants';
import { ConnectionLight, DesktopNav, UserMenu, type NavAccess } from './HeaderNav';
import { PhoneNav } from './PhoneNav';
import { useUserMenu } from './useUserMenu';
import { useT } from '../i18n/useT';

export { CONNECTION_TOOLTIPS } from './HeaderNav';

/** The appointment count badge: the length of the caller's appointment list; failures are ignored. */
function useAppointmentCount(): number {
  const session = useSession();
  const { data } = useQuery({
    queryKey: ['appointments', 'me'],
    queryFn: () => call('listMyAppointments', { query: { timezone_str: browserZone() } }),
    enabled: Boolean(session) && session?.user.account_type !== 'admin',
  });
  return Array.isArray(data) ? data.length : 0;
}

export function Layout({ children }: { children: ReactNode }) {
  const t = useT();
  const session = useSession();
  const navigate = useNavigate();
  const theme = useTheme();
  const mobile = useMediaQuery(theme.breakpoints.down('sm'));
  const count = useAppointmentCount();
  const { labelId: roleLabelId, home, institutionAdmin, console: consoleAllowed } = useRole();
  const menu = useUserMenu();
  const askToLeave = useAskToLeave();
  if (!session) return <>{children}</>;
  const { user } = session;
  const doctor = isDoctor(user);
  // Logout ends the session before it navigates: unsaved input on the page is asked about first.
  const logout = async () => {
    menu.setOpen(false);
    if (!(await askToLeave())) return;
    sessionStore.clear();
    navigate('/', { replace: true });
  };
  const go = (path: string) => {
    menu.setOpen(false);
    navigate(path);
  };
  // Already there (the address unchanged), the section is brought into view again.
  const showAllDoctors = () => {
    menu.setOpen(false);
    navigate(allDoctorsPath);
    document.getElementById(NAV_PLACES.allDoctors.anchor)?.scrollIntoView({ block: 'start' });
  };
  const access: NavAccess = { home, doctor, consoleAllowed, count };

  return (
    <Box sx={{ minHeight: '100vh', bgcolor: 'grey.50', pb: mobile ? 8 : 0 }}>
      <AppBar position="sticky" color="inherit" elevation={1}>
        <Toolbar sx={{ gap: 2 }}>
          <Typography component={RouterLink} to={home} variant="h6" sx={{ color: 'primary.main', textDecoration: 'none', fontWeight: 700, flexGrow: mobile ? 1 : 0 }}>
            {PRODUCT_NAME}
          </Typography>
          {!mobile && <DesktopNav {...access} onAllDoctors={showAllDoctors} />}
          {mobile ? (
            <>
              <ConnectionLight />
              <Button onClick={() => void logout()}>{t('shell.logout')}</Button>
            </>
          ) : (
            <UserMenu {...access} menu={menu} name={user.name} roleLabel={t(roleLabelId)} institutionAdmin={institutionAdmin} onGo={go} onAllDoctors={showAllDoctors} onLogout={() => void logout()} />
          )}
        </Toolbar>
      </AppBar>
      <Box component="main" sx={{ maxWidth: 1100, mx: 'auto', p: { xs: 2, sm: 3 } }}>
        {children}
      </Box>
      {mobile && <PhoneNav {...access} onGo={(path) => navigate(path)} onAllDoctors={showAllDoctors} />}
    </Box>
  );
}
