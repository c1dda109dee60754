import type { ReactNode } from 'react';
import { Box, Stack, Typography } from '@mui/material';
import type { SvgIconComponent } from '@mui/icons-material';
import { BRAND } from '../app/theme';

/** An empty list said plainly, with an icon and, where there is one, the next step. */
export function EmptyState({ icon: Icon, title, text, action }: { icon: SvgIconComponent; title?: string; text: ReactNode; action?: ReactNode }) {
  return (
    <Stack spacing={1} sx={{ alignItems: 'center', textAlign: 'center', py: 4, px: 2, border: 1, borderColor: 'divider', borderStyle: 'dashed', borderRadius: 3, bgcolor: 'background.paper' }}>
      <Box sx={{ width: 56, height: 56, borderRadius: '50%', display: 'grid', placeItems: 'center', bgcolor: BRAND.primaryLight, color: 'primary.main' }}>
        <Icon aria-hidden />
      </Box>
      {title && <Typography sx={{ fontWeight: 600 }}>{title}</Typography>}
      <Typography color="text.secondary">{text}</Typography>
      {action}
    </Stack>
  );
}
