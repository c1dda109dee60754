import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Card, CardContent, CircularProgress, Grid, Stack, Typography } from '@mui/material';
import SearchOutlined from '@mui/icons-material/SearchOutlined';
import { call } from '../../lib/client';
import { DoctorAvatar } from '../../components/DoctorAvatar';
import { EmptyState } from '../../components/EmptyState';
import { TruncatedText } from '../../components/TruncatedText';
import { NAV_PLACES } from '../../app/navigation';
import { useT } from '../../i18n/useT';

/** Seed 000: a doctor's own list of doctors, its limit, title and empty text. */
export const ALL_DOCTORS = {
  limit: 50,
  titleId: NAV_PLACES.allDoctors.labelId,
  emptyId: 'public.noDoctorsAvailable',
  /** The section's anchor on the doctor home, which the doctor's navigation opens. */
  anchor: NAV_PLACES.allDoctors.anchor,
} as const;

/**
 * 'All Doctors' for a doctor (seed 000 §2, §6): every doctor with their qualification only; no slots, no Add Doctor.
 * Opened at /doctor-home#all-doctors it scrolls itself into view. List errors leave it empty (seed: silent).
 */
export function AllDoctors() {
  const t = useT();
  const { hash } = useLocation();
  const doctors = useQuery({
    queryKey: ['doctors', 'all', ALL_DOCTORS.limit],
    queryFn: () => call('listDoctors', { query: { limit: ALL_DOCTORS.limit } }).catch(() => []),
  });
  const loaded = !doctors.isLoading;
  useEffect(() => {
    if (loaded && hash === `#${ALL_DOCTORS.anchor}`) document.getElementById(ALL_DOCTORS.anchor)?.scrollIntoView?.({ block: 'start' });
  }, [loaded, hash]);
  const list = doctors.data ?? [];
  return (
    <Card id={ALL_DOCTORS.anchor} sx={{ scrollMarginTop: 80 }} data-testid="all-doctors">
      <CardContent>
        <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
          {t(ALL_DOCTORS.titleId)}
        </Typography>
        {doctors.isLoading && <CircularProgress size={20} aria-label={t('public.loadingDoctors')} />}
        {loaded && list.length === 0 && <EmptyState icon={SearchOutlined} text={t(ALL_DOCTORS.emptyId)} />}
        <Grid container spacing={1.5} component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }}>
          {list.map((d) => (
            <Grid key={d.doctor_id} size={{ xs: 12, sm: 6, md: 4 }} component="li">
              <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', p: 1.5, border: 1, borderColor: 'divider', borderRadius: 2, minWidth: 0 }}>
                <DoctorAvatar name={d.name} size={40} />
                <Stack sx={{ minWidth: 0 }}>
                  <TruncatedText text={d.name} sx={{ fontWeight: 600 }} />
                  {d.qualification && <TruncatedText text={d.qualification} variant="body2" color="text.secondary" />}
                </Stack>
              </Stack>
            </Grid>
          ))}
        </Grid>
      </CardContent>
    </Card>
  );
}
