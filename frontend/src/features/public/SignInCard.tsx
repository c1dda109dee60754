import { Link as RouterLink, useLocation } from 'react-router';
import { Button, Card, CardContent, Stack, Typography } from '@mui/material';
import DashboardOutlined from '@mui/icons-material/DashboardOutlined';
import { homePathFor, useSession } from '../../lib/session';
import { TruncatedText } from '../../components/TruncatedText';
import { SignInButtons } from '../auth/LoginPage';
import { useT } from '../../i18n/useT';

/** The sidebar: sign-in for visitors (they come back to this page); a signed-in visitor is recognised and offered their dashboard. */
export function SignInCard() {
  const session = useSession();
  const t = useT();
  const { pathname } = useLocation();
  return (
    <Card component="aside" aria-label={session ? t('public.yourAccount') : t('public.signIn')}>
      <CardContent>
        {session ? (
          <Stack spacing={1.5}>
            <Typography variant="subtitle1" component="h2">
              {t('public.signedIn')}
            </Typography>
            <TruncatedText text={session.user.name} color="text.secondary" />
            <Button component={RouterLink} to={homePathFor(session.user)} variant="outlined" startIcon={<DashboardOutlined />}>
              {t('shell.goToDashboard')}
            </Button>
          </Stack>
        ) : (
          <Stack spacing={1.5}>
            <Typography variant="subtitle1" component="h2">
              {t('public.signInToBook')}
            </Typography>
            {/* Signing in here comes back to this page, where the visitor is then recognised and books directly. */}
            <SignInButtons intent={{ path: pathname }} />
          </Stack>
        )}
      </CardContent>
    </Card>
  );
}
