import { Link as RouterLink } from 'react-router';
import { Box, Button, Card, CardContent, Stack, Typography } from '@mui/material';
import SearchOff from '@mui/icons-material/SearchOff';
import { homePathFor, useSession } from '../lib/session';
import { useT } from '../i18n/useT';

/** Any path the app does not know: says so, and offers the way home. */
export function NotFound() {
  const t = useT();
  const session = useSession();
  const home = session ? homePathFor(session.user) : '/';
  return (
    <Box sx={{ maxWidth: 560, mx: 'auto', p: { xs: 2, sm: 4 } }}>
      <Card>
        <CardContent>
          <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center', py: 2 }}>
            <SearchOff sx={{ fontSize: 56, color: 'text.secondary' }} aria-hidden />
            <Typography variant="h5" component="h1">
              {t('shell.notFoundTitle')}
            </Typography>
            <Typography color="text.secondary">{t('shell.notFoundText')}</Typography>
            <Button component={RouterLink} to={home} variant="contained">
              {t(session ? 'shell.goToDashboard' : 'shell.goToHomePage')}
            </Button>
          </Stack>
        </CardContent>
      </Card>
    </Box>
  );
}
