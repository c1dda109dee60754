import { useId, useState, type ReactElement, type ReactNode } from 'react';
import { Box, Tab, Tabs } from '@mui/material';
import { useT } from '../../i18n/useT';

/** The public page's tabs ('About Doctor', 'Medical Offerings', 'Practice Info', 'Book Consultation') with their panels. */
export function ProfileTabs({ tabs, initial = 0 }: { tabs: Array<{ label: string; icon: ReactElement; panel: ReactNode }>; initial?: number }) {
  const t = useT();
  const id = useId();
  const [tab, setTab] = useState(initial);
  return (
    <Box>
      <Tabs value={tab} onChange={(_e, v: number) => setTab(v)} variant="scrollable" allowScrollButtonsMobile aria-label={t('public.doctorProfileTabs')} sx={{ borderBottom: 1, borderColor: 'divider', '& .MuiTab-root': { px: 1.5, minWidth: 0 } }}>
        {tabs.map((item, i) => (
          <Tab key={item.label} label={item.label} icon={item.icon} iconPosition="start" id={`${id}-tab-${i}`} aria-controls={`${id}-panel-${i}`} sx={{ minHeight: 48 }} />
        ))}
      </Tabs>
      <Box role="tabpanel" id={`${id}-panel-${tab}`} aria-labelledby={`${id}-tab-${tab}`} sx={{ pt: 2 }}>
        {tabs[tab]?.panel}
      </Box>
    </Box>
  );
}
