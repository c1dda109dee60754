import { Link as RouterLink } from 'react-router';
import { Avatar, Badge, Box, Button, Divider, Menu, MenuItem, Tooltip, Typography } from '@mui/material';
import AdminPanelSettingsOutlined from '@mui/icons-material/AdminPanelSettingsOutlined';
import { initials } from '../lib/session';
import type { ConnectionState } from '../lib/realtime';
import { NAV_PLACES, allDoctorsPath } from './navigation';
import { useRealtime } from './RealtimeProvider';
import type { UserMenuState } from './useUserMenu';
import { useT, type MessageId } from '../i18n/useT';

/** The connection light's words for each state (message ids). */
export const CONNECTION_TOOLTIPS: Record<ConnectionState, MessageId> = {
  connected: 'shell.connected',
  connecting: 'shell.connecting',
  disconnected: 'shell.disconnected',
  error: 'shell.connectionError',
};

/** Where a signed-in user can go from the header: their home, and the places their role opens. */
export interface NavAccess {
  home: string;
  doctor: boolean;
  consoleAllowed: boolean;
  /** The appointment count for the badges (none shown at 0). */
  count: number;
}

/** The real-time connection's light, green when connected, with its state in words. */
export function ConnectionLight() {
  const t = useT();
  const { state } = useRealtime();
  const words = t(CONNECTION_TOOLTIPS[state]);
  return (
    <Tooltip title={words}>
      <Box
        component="span"
        role="img"
        aria-label={words}
        data-testid="connection-light"
        data-state={state}
        sx={{ width: 10, height: 10, borderRadius: '50%', display: 'inline-block', bgcolor: state === 'connected' ? 'success.main' : 'warning.main' }}
      />
    </Tooltip>
  );
}

/** The desktop header's links: the dashboard, My Appointments with its badge, Profile, and the role's places. */
export function DesktopNav({ home, doctor, consoleAllowed, count, onAllDoctors }: NavAccess & { onAllDoctors(): void }) {
  const t = useT();
  return (
    <Box component="nav" sx={{ display: 'flex', gap: 1, flexGrow: 1 }}>
      <Button component={RouterLink} to={home}>
        {t(doctor ? 'shell.doctorDashboard' : 'shell.dashboard')}
      </Button>
      <Button component={RouterLink} to="/my-appointments">
        <Badge badgeContent={count > 0 ? count : undefined} color="primary" data-testid="appointment-badge">
          {t('shell.myAppointments')}
        </Badge>
      </Button>
      <Button component={RouterLink} to="/profile">
        {t('shell.profile')}
      </Button>
      {doctor && (
        <Button component={RouterLink} to={allDoctorsPath} onClick={onAllDoctors}>
          {t(NAV_PLACES.allDoctors.labelId)}
        </Button>
      )}
      {consoleAllowed && (
        <Button component={RouterLink} to={NAV_PLACES.console.pathname} startIcon={<AdminPanelSettingsOutlined />} sx={{ ml: 'auto' }}>
          {t(NAV_PLACES.console.labelId)}
        </Button>
      )}
    </Box>
  );
}

/** The desktop header's user button (initials, name, role, connection light) and its menu, Logout last. */
export function UserMenu(
  props: NavAccess & { menu: UserMenuState; name: string; roleLabel: string; institutionAdmin: boolean; onGo(path: string): void; onAllDoctors(): void; onLogout(): void },
) {
  const t = useT();
  const { menu, home, count, onGo } = props;
  return (
    <>
      <Button ref={menu.button} onClick={() => menu.setOpen(true)} aria-haspopup="menu" sx={{ textTransform: 'none', gap: 1 }}>
        <Avatar sx={{ width: 32, height: 32, bgcolor: 'primary.main', fontSize: 14 }}>{initials(props.name)}</Avatar>
        <Box sx={{ textAlign: 'left' }}>
          <Typography variant="body2" title={props.name} noWrap sx={{ fontWeight: 600, maxWidth: 220 }}>
            {props.name}
          </Typography>
          <Typography variant="caption" color="text.secondary" data-testid="role-label">
            {props.roleLabel}
          </Typography>
        </Box>
        <ConnectionLight />
      </Button>
      <Menu anchorEl={() => menu.button.current} open={menu.open} onClose={() => menu.setOpen(false)} disableRestoreFocus>
        <MenuItem onClick={() => onGo(home)}>{t('shell.dashboard')}</MenuItem>
        <MenuItem onClick={() => onGo('/profile')}>{t('shell.viewProfile')}</MenuItem>
        <MenuItem onClick={() => onGo('/my-appointments')}>
          <Badge badgeContent={count > 0 ? count : undefined} color="primary">
            {t('shell.myAppointments')}
          </Badge>
        </MenuItem>
        {props.doctor && <MenuItem onClick={props.onAllDoctors}>{t(NAV_PLACES.allDoctors.labelId)}</MenuItem>}
        {props.institutionAdmin && <MenuItem onClick={() => onGo('/institution-admin')}>{t('shell.manageInstitution')}</MenuItem>}
        {props.consoleAllowed && <MenuItem onClick={() => onGo(NAV_PLACES.console.pathname)}>{t(NAV_PLACES.console.labelId)}</MenuItem>}
        <Divider />
        <MenuItem onClick={props.onLogout}>{t('shell.logout')}</MenuItem>
      </Menu>
    </>
  );
}
