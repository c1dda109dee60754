import { Button } from '@mui/material';
import { useNavigate } from 'react-router';
import { sessionStore } from '../../lib/session';
import { useT } from '../../i18n/useT';

/** The institution pages' own Logout, on wider screens only: on a phone the top bar's Logout is the one (one button, not two). */
export function DesktopLogout() {
  const t = useT();
  const navigate = useNavigate();
  return (
    <Button
      sx={{ display: { xs: 'none', sm: 'inline-flex' } }}
      onClick={() => {
        sessionStore.clear();
        navigate('/');
      }}
    >
      {t('institution.logout')}
    </Button>
  );
}
