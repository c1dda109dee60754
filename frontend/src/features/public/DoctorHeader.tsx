import type { ReactNode } from 'react';
import { Box, Stack, Typography } from '@mui/material';
import { DoctorAvatar } from '../../components/DoctorAvatar';

/** The doctor's name (two lines at most, the whole name on hover), avatar and the facts a patient chooses by. */
export function DoctorHeader({ name, subtitle, facts, badge }: { name: string; subtitle?: string; facts: ReactNode; badge?: ReactNode }) {
  return (
    <Stack direction="row" spacing={2} sx={{ alignItems: 'flex-start', minWidth: 0 }}>
      <DoctorAvatar name={name} size={72} />
      <Box sx={{ minWidth: 0, flex: 1 }}>
        {badge}
        <Typography
          variant="h4"
          component="h1"
          title={name}
          sx={{ fontSize: { xs: '1.6rem', sm: '2.125rem' }, overflow: 'hidden', display: '-webkit-box', WebkitLineClamp: 2, WebkitBoxOrient: 'vertical', overflowWrap: 'anywhere' }}
        >
          {name}
        </Typography>
        {subtitle && (
          <Typography color="text.secondary" lang="und" noWrap title={subtitle}>
            {subtitle}
          </Typography>
        )}
        <Box sx={{ mt: 0.5 }}>{facts}</Box>
      </Box>
    </Stack>
  );
}
