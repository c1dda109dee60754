import { useEffect, useRef, useSyncExternalStore } from 'react';
import { useRefresh } from 'react-admin';
import { Box, Button, CircularProgress, Typography } from '@mui/material';
import { useT } from '../i18n/useT';
import type { CatchUp } from './catch-up';
import { readSide } from './providers';

/**
 * In the console's bar: while the read side has not caught up with the user's last write, says that what is shown is
 * still updating; when it has, fetches everything on screen again (react-admin's refresh) and goes away. After the
 * catch-up gives up, says the data may be out of date and offers to check again.
 */
export function StillUpdating({ catchUp = readSide }: { catchUp?: CatchUp }) {
  const { status, caughtUp } = useSyncExternalStore(catchUp.subscribe, catchUp.get);
  const refresh = useRefresh();
  const t = useT();
  const seen = useRef(caughtUp);
  useEffect(() => {
    if (caughtUp === seen.current) return;
    seen.current = caughtUp;
    refresh();
  }, [caughtUp, refresh]);
  if (status === 'current') return null;
  return (
    <Box role="status" data-testid="still-updating" sx={{ display: 'flex', alignItems: 'center', gap: 1, mx: 1, minWidth: 0 }}>
      {status === 'updating' ? (
        <>
          <CircularProgress size={16} color="inherit" aria-hidden />
          <Typography variant="body2" noWrap>
            {t('admin.stillUpdating')}
          </Typography>
        </>
      ) : (
        <>
          <Typography variant="body2" noWrap>
            {t('admin.mayBeOutOfDate')}
          </Typography>
          <Button size="small" color="inherit" variant="outlined" onClick={() => catchUp.retry()}>
            {t('admin.checkAgain')}
          </Button>
        </>
      )}
    </Box>
  );
}
