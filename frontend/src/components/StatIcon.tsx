import Box from '@mui/material/Box';
import type { ReactNode } from 'react';

/** A card's figure's icon, in a tinted square. */
export function StatIcon({ children }: { children: ReactNode }) {
  return (
    <Box sx={{ width: 40, height: 40, borderRadius: 2, display: 'grid', placeItems: 'center', bgcolor: 'background.default', color: 'primary.main', flexShrink: 0 }} aria-hidden>
      {children}
    </Box>
  );
}
