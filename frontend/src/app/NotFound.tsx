import { Link as RouterLink } from 'react-router';
import { Box, Button, Card, CardContent, Stack, Typography } from '@mui/material';
import SearchOff from '@mui/icons-material/SearchOff';
import { homePathFor, useSession } from '../lib/session';

/** Any path the app does not know: says so, and offers the way home. */
export function NotFound() {
  const session = useSession();
  const home = session ? homePathFor(session.user) : '/';
  return (
    <Box sx={{ maxWidth: 560, mx: 'auto', p: { xs: 2, sm: 4 } }}>
      <Card>
        <CardContent>
          <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center', py: 2 }}>
            <SearchOff sx={{ fontSize: 56, color: 'text.secondary' }} aria-hidden />
            <Typography variant="h5" component="h1">
              Page not found
            </Typography>
            <Typography color="text.secondary">The page you opened does not exist or has moved.</Typography>
            <Button component={RouterLink} to={home} variant="contained">
              {session ? 'Go to your dashboard' : 'Go to the home page'}
            </Button>
          </Stack>
        </CardContent>
      </Card>
    </Box>
  );
}
