import { Link as RouterLink } from 'react-router';
import { Avatar, Badge, Box, Button, Divider, Menu, MenuItem, Tooltip, Typography } from '@mui/material';
import AdminPanelSettingsOutlined from '@mui/icons-material/AdminPanelSettingsOutlined';
import { initials } from '../lib/session';
import type { ConnectionState } from '../lib/realtime';
import { NAV_PLACES, allDoctorsPath } from './navigation';
import { useRealtime } from './RealtimeProvider';
import type { UserMenuState } from './useUserMenu';

export const CONNECTION_TOOLTIPS: Record<ConnectionState, string> = {
  connected: 'Real-time notifications active',
  connecting: 'Connecting to notifications...',
  disconnected: 'Notifications disconnected',
  error: 'Connection error',
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
  const { state } = useRealtime();
  return (
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
}

/** The desktop header's links: the dashboard, My Appointments with its badge, Profile, and the role's places. */
export function DesktopNav({ home, doctor, consoleAllowed, count, onAllDoctors }: NavAccess & { onAllDoctors(): void }) {
  return (
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
        <Button component={RouterLink} to={allDoctorsPath} onClick={onAllDoctors}>
          {NAV_PLACES.allDoctors.label}
        </Button>
      )}
      {consoleAllowed && (
        <Button component={RouterLink} to={NAV_PLACES.console.pathname} startIcon={<AdminPanelSettingsOutlined />} sx={{ ml: 'auto' }}>
          {NAV_PLACES.console.label}
        </Button>
      )}
    </Box>
  );
}

/** The desktop header's user button (initials, name, role, connection light) and its menu, Logout last. */
export function UserMenu(
  props: NavAccess & { menu: UserMenuState; name: string; roleLabel: string; institutionAdmin: boolean; onGo(path: string): void; onAllDoctors(): void; onLogout(): void },
) {
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
        <MenuItem onClick={() => onGo(home)}>Dashboard</MenuItem>
        <MenuItem onClick={() => onGo('/profile')}>View Profile</MenuItem>
        <MenuItem onClick={() => onGo('/my-appointments')}>
          <Badge badgeContent={count > 0 ? count : undefined} color="primary">
            My Appointments
          </Badge>
        </MenuItem>
        {props.doctor && <MenuItem onClick={props.onAllDoctors}>{NAV_PLACES.allDoctors.label}</MenuItem>}
        {props.institutionAdmin && <MenuItem onClick={() => onGo('/institution-admin')}>Manage Institution</MenuItem>}
        {props.consoleAllowed && <MenuItem onClick={() => onGo(NAV_PLACES.console.pathname)}>{NAV_PLACES.console.label}</MenuItem>}
        <Divider />
        <MenuItem onClick={props.onLogout}>Logout</MenuItem>
      </Menu>
    </>
  );
}
