import { Link as RouterLink, useLocation } from 'react-router';
import { Button, Card, CardContent, Stack, Typography } from '@mui/material';
import DashboardOutlined from '@mui/icons-material/DashboardOutlined';
import { homePathFor, useSession } from '../../lib/session';
import { TruncatedText } from '../../components/TruncatedText';
import { SignInButtons } from '../auth/LoginPage';

/** The sidebar: sign-in for visitors (they come back to this page); a signed-in visitor is recognised and offered their dashboard. */
export function SignInCard() {
  const session = useSession();
  const { pathname } = useLocation();
  return (
    <Card component="aside" aria-label={session ? 'Your account' : 'Sign in'}>
      <CardContent>
        {session ? (
          <Stack spacing={1.5}>
            <Typography variant="subtitle1" component="h2">
              Signed in
            </Typography>
            <TruncatedText text={session.user.name} color="text.secondary" />
            <Button component={RouterLink} to={homePathFor(session.user)} variant="outlined" startIcon={<DashboardOutlined />}>
              Go to your dashboard
            </Button>
          </Stack>
        ) : (
          <Stack spacing={1.5}>
            <Typography variant="subtitle1" component="h2">
              Sign in to book
            </Typography>
            {/* Signing in here comes back to this page, where the visitor is then recognised and books directly. */}
            <SignInButtons intent={{ path: pathname }} />
          </Stack>
        )}
      </CardContent>
    </Card>
  );
}
