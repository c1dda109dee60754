import { useLocation } from 'react-router';
import { Badge, BottomNavigation, BottomNavigationAction, Paper } from '@mui/material';
import HomeOutlined from '@mui/icons-material/HomeOutlined';
import EventNoteOutlined from '@mui/icons-material/EventNoteOutlined';
import PersonOutlined from '@mui/icons-material/PersonOutlined';
import GroupsOutlined from '@mui/icons-material/GroupsOutlined';
import AdminPanelSettingsOutlined from '@mui/icons-material/AdminPanelSettingsOutlined';
import { NAV_PLACES } from './navigation';
import type { NavAccess } from './HeaderNav';
import { useT } from '../i18n/useT';

/** The phone's bottom navigation: Home, My Appointments with its badge, the role's places and Profile. */
export function PhoneNav({ home, doctor, consoleAllowed, count, onGo, onAllDoctors }: NavAccess & { onGo(path: string): void; onAllDoctors(): void }) {
  const t = useT();
  const { pathname, hash } = useLocation();
  const onAllDoctorsPage = pathname === NAV_PLACES.allDoctors.pathname && hash === `#${NAV_PLACES.allDoctors.anchor}`;
  const tab = pathname.startsWith('/my-appointments') ? 'appointments' : pathname.startsWith('/profile') ? 'profile' : onAllDoctorsPage ? 'all-doctors' : 'home';
  return (
    <Paper sx={{ position: 'fixed', bottom: 0, left: 0, right: 0 }} elevation={3}>
      {/*
        One line per label at 390 px: the selected label keeps its size (bold instead of larger) and the actions their
        room; the phone's labels are the short forms of the header's (in English the same), and a label still too long
        for its fifth of the bar ends in an ellipsis rather than running into its neighbour.
      */}
      <BottomNavigation
        showLabels
        value={tab}
        component="nav"
        aria-label={t('shell.mainNavigation')}
        sx={{
          '& .MuiBottomNavigationAction-root': { px: 0.5, minWidth: 0 },
          '& .MuiBottomNavigationAction-label': { whiteSpace: 'nowrap', fontSize: '0.75rem', maxWidth: '100%', overflow: 'hidden', textOverflow: 'ellipsis' },
          '& .MuiBottomNavigationAction-label.Mui-selected': { fontSize: '0.75rem', fontWeight: 700 },
        }}
      >
        <BottomNavigationAction value="home" label={t('shell.home')} icon={<HomeOutlined />} onClick={() => onGo(home)} />
        <BottomNavigationAction
          value="appointments"
          label={t('shell.phoneNavAppointments')}
          icon={
            <Badge badgeContent={count > 0 ? count : undefined} color="primary" data-testid="appointment-badge-phone">
              <EventNoteOutlined />
            </Badge>
          }
          onClick={() => onGo('/my-appointments')}
        />
        {doctor && <BottomNavigationAction value="all-doctors" label={t('shell.phoneNavAllDoctors')} icon={<GroupsOutlined />} onClick={onAllDoctors} />}
        {consoleAllowed && <BottomNavigationAction value="console" label={t('shell.console')} aria-label={t(NAV_PLACES.console.labelId)} icon={<AdminPanelSettingsOutlined />} onClick={() => onGo(NAV_PLACES.console.pathname)} />}
        <BottomNavigationAction value="profile" label={t('shell.profile')} icon={<PersonOutlined />} onClick={() => onGo('/profile')} />
      </BottomNavigation>
    </Paper>
  );
}
