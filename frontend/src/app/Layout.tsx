import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link as RouterLink, useLocation, useNavigate } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import {
  AppBar,
  Avatar,
  Badge,
  BottomNavigation,
  BottomNavigationAction,
  Box,
  Button,
  Divider,
  Menu,
  MenuItem,
  Paper,
  Toolbar,
  Tooltip,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import { call } from '../lib/client';
import { browserZone } from '../lib/time';
import HomeOutlined from '@mui/icons-material/HomeOutlined';
import EventNoteOutlined from '@mui/icons-material/EventNoteOutlined';
import PersonOutlined from '@mui/icons-material/PersonOutlined';
import GroupsOutlined from '@mui/icons-material/GroupsOutlined';
import AdminPanelSettingsOutlined from '@mui/icons-material/AdminPanelSettingsOutlined';
import { NAV_PLACES, allDoctorsPath } from './navigation';
import { initials, isDoctor, sessionStore, useSession } from '../lib/session';
import { useRealtime } from './RealtimeProvider';
import { useRole } from './useRole';
import { useAskToLeave } from '../lib/unsavedChanges';
import type { ConnectionState } from '../lib/realtime';
import { PRODUCT_NAME } from '@telemed/contracts/constants';

export const CONNECTION_TOOLTIPS: Record<ConnectionState, string> = {
  connected: 'Real-time notifications active',
  connecting: 'Connecting to notifications...',
  disconnected: 'Notifications disconnected',
  error: 'Connection error',
};

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
  const session = useSession();
  const navigate = useNavigate();
  const theme = useTheme();
  const mobile = useMediaQuery(theme.breakpoints.down('sm'));
  const { state } = useRealtime();
  const count = useAppointmentCount();
  const { label: roleLabel, home, institutionAdmin, console: consoleAllowed } = useRole();
  const { pathname, hash } = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const askToLeave = useAskToLeave();
  // The user menu's button as it is now. Crossing the phone breakpoint, even for a moment (a zoom, a rotation, a
  // window resized), swaps the desktop header for the phone's and back, which puts a new button element in its place:
  // a menu anchored to the element that was clicked would then hang off a detached node and hand focus back to it,
  // that is to nobody (<body>), and a keyboard user would lose their place. So the menu follows whichever button is
  // there and, once closed, gives focus back to that one (rather than MUI's node remembered at opening).
  const menuButton = useRef<HTMLButtonElement | null>(null);
  const menuWasOpen = useRef(false);
  useEffect(() => {
    if (menuOpen) menuWasOpen.current = true;
    else if (menuWasOpen.current) {
      menuWasOpen.current = false;
      menuButton.current?.focus();
    }
  }, [menuOpen]);
  if (!session) return <>{children}</>;
  const { user } = session;
  const doctor = isDoctor(user);
  // Logout ends the session before it navigates: unsaved input on the page is asked about first.
  const logout = async () => {
    setMenuOpen(false);
    if (!(await askToLeave())) return;
    sessionStore.clear();
    navigate('/', { replace: true });
  };
  const onAllDoctors = pathname === NAV_PLACES.allDoctors.pathname && hash === `#${NAV_PLACES.allDoctors.anchor}`;
  const tab = pathname.startsWith('/my-appointments') ? 'appointments' : pathname.startsWith('/profile') ? 'profile' : onAllDoctors ? 'all-doctors' : 'home';
  const go = (path: string) => {
    setMenuOpen(false);
    navigate(path);
  };
  // Already there (the address unchanged), the section is brought into view again.
  const showAllDoctors = () => {
    setMenuOpen(false);
    navigate(allDoctorsPath);
    document.getElementById(NAV_PLACES.allDoctors.anchor)?.scrollIntoView({ block: 'start' });
  };
  const light = (
    <Tooltip title={CONNECTION_TOOLTIPS[state]}>
      <Box
        component="span"
        role="img"
        aria-label={CONNECTION_TOOLTIPS[state]}
        data-testid="connection-light"
        data-state={state}
        sx={{ width: 10, height: 10, borderRadius: '50%', display: 'inline-block', bgcolor: state === 'connected' ? 'success.main' : 'warning.main' }}
      />
    </Tooltip>
  );

  return (
    <Box sx={{ minHeight: '100vh', bgcolor: 'grey.50', pb: mobile ? 8 : 0 }}>
      <AppBar position="sticky" color="inherit" elevation={1}>
        <Toolbar sx={{ gap: 2 }}>
          <Typography component={RouterLink} to={home} variant="h6" sx={{ color: 'primary.main', textDecoration: 'none', fontWeight: 700, flexGrow: mobile ? 1 : 0 }}>
            {PRODUCT_NAME}
          </Typography>
          {!mobile && (
            <Box component="nav" sx={{ display: 'flex', gap: 1, flexGrow: 1 }}>
              <Button component={RouterLink} to={home}>
                {doctor ? 'Doctor Dashboard' : 'Dashboard'}
              </Button>
              <Button component={RouterLink} to="/my-appointments">
                <Badge badgeContent={count > 0 ? count : undefined} color="primary" data-testid="appointment-badge">
                  My Appointments
                </Badge>
              </Button>
              <Button component={RouterLink} to="/profile">
                Profile
              </Button>
              {doctor && (
                <Button component={RouterLink} to={allDoctorsPath} onClick={showAllDoctors}>
                  {NAV_PLACES.allDoctors.label}
                </Button>
              )}
              {consoleAllowed && (
                <Button component={RouterLink} to={NAV_PLACES.console.pathname} startIcon={<AdminPanelSettingsOutlined />} sx={{ ml: 'auto' }}>
                  {NAV_PLACES.console.label}
                </Button>
              )}
            </Box>
          )}
          {mobile ? (
            <>
              {light}
              <Button onClick={() => void logout()}>Logout</Button>
            </>
          ) : (
            <>
              <Button ref={menuButton} onClick={() => setMenuOpen(true)} aria-haspopup="menu" sx={{ textTransform: 'none', gap: 1 }}>
                <Avatar sx={{ width: 32, height: 32, bgcolor: 'primary.main', fontSize: 14 }}>{initials(user.name)}</Avatar>
                <Box sx={{ textAlign: 'left' }}>
                  <Typography variant="body2" title={user.name} noWrap sx={{ fontWeight: 600, maxWidth: 220 }}>
                    {user.name}
                  </Typography>
                  <Typography variant="caption" color="text.secondary" data-testid="role-label">
                    {roleLabel}
                  </Typography>
                </Box>
                {light}
              </Button>
              <Menu anchorEl={() => menuButton.current} open={menuOpen} onClose={() => setMenuOpen(false)} disableRestoreFocus>
                <MenuItem onClick={() => go(home)}>Dashboard</MenuItem>
                <MenuItem onClick={() => go('/profile')}>View Profile</MenuItem>
                <MenuItem onClick={() => go('/my-appointments')}>
                  <Badge badgeContent={count > 0 ? count : undefined} color="primary">
                    My Appointments
                  </Badge>
                </MenuItem>
                {doctor && <MenuItem onClick={showAllDoctors}>{NAV_PLACES.allDoctors.label}</MenuItem>}
                {institutionAdmin && <MenuItem onClick={() => go('/institution-admin')}>Manage Institution</MenuItem>}
                {consoleAllowed && <MenuItem onClick={() => go(NAV_PLACES.console.pathname)}>{NAV_PLACES.console.label}</MenuItem>}
                <Divider />
                <MenuItem onClick={() => void logout()}>Logout</MenuItem>
              </Menu>
            </>
          )}
        </Toolbar>
      </AppBar>
      <Box component="main" sx={{ maxWidth: 1100, mx: 'auto', p: { xs: 2, sm: 3 } }}>
        {children}
      </Box>
      {mobile && (
        <Paper sx={{ position: 'fixed', bottom: 0, left: 0, right: 0 }} elevation={3}>
          {/* One line per label at 390 px: the selected label keeps its size (bold instead of larger) and the actions their room. */}
          <BottomNavigation
            showLabels
            value={tab}
            component="nav"
            aria-label="Main"
            sx={{
              '& .MuiBottomNavigationAction-root': { px: 0.5, minWidth: 0 },
              '& .MuiBottomNavigationAction-label': { whiteSpace: 'nowrap', fontSize: '0.75rem' },
              '& .MuiBottomNavigationAction-label.Mui-selected': { fontSize: '0.75rem', fontWeight: 700 },
            }}
          >
            <BottomNavigationAction value="home" label="Home" icon={<HomeOutlined />} onClick={() => navigate(home)} />
            <BottomNavigationAction
              value="appointments"
              label="My Appointments"
              icon={
                <Badge badgeContent={count > 0 ? count : undefined} color="primary" data-testid="appointment-badge-phone">
                  <EventNoteOutlined />
                </Badge>
              }
              onClick={() => navigate('/my-appointments')}
            />
            {doctor && <BottomNavigationAction value="all-doctors" label={NAV_PLACES.allDoctors.label} icon={<GroupsOutlined />} onClick={showAllDoctors} />}
            {consoleAllowed && <BottomNavigationAction value="console" label="Console" aria-label={NAV_PLACES.console.label} icon={<AdminPanelSettingsOutlined />} onClick={() => navigate(NAV_PLACES.console.pathname)} />}
            <BottomNavigationAction value="profile" label="Profile" icon={<PersonOutlined />} onClick={() => navigate('/profile')} />
          </BottomNavigation>
        </Paper>
      )}
    </Box>
  );
}

