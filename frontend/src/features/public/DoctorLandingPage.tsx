import { Link as RouterLink, useParams } from 'react-router';
import { Alert, Box, Button, CircularProgress, Stack, Typography } from '@mui/material';
import PersonSearchOutlined from '@mui/icons-material/PersonSearchOutlined';
import { homePathFor, useSession } from '../../lib/session';
import { bundledProfile } from './content';
import { usePublicDoctor } from './usePublicDoctor';
import { PublicPageShell } from './PublicPageShell';
import { RealDoctorPage } from './RealDoctorPage';
import { BundledDoctorPage } from './BundledDoctorPage';
import { useT } from '../../i18n/useT';

/**
 * A doctor's page while the profile is on its way. The build also prerenders it into doctor.html (see prerender.tsx),
 * which the server sends for a registered doctor's page, so the page's frame paints before the scripts have loaded.
 */
export function DoctorPageLoading() {
  const t = useT();
  return (
    <PublicPageShell>
      <Box sx={{ display: 'grid', placeItems: 'center', py: 8 }}>
        <CircularProgress aria-label={t('public.loadingDoctorPage')} />
      </Box>
    </PublicPageShell>
  );
}

/**
 * A doctor's address that leads to no one (mistyped, or a doctor no longer listed): said plainly, never a stand-in
 * profile that a patient could take for the doctor they looked for. The server answers such a page with 404.
 */
export function DoctorNotFound() {
  const session = useSession();
  const t = useT();
  return (
    <PublicPageShell>
      <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center', py: { xs: 4, sm: 8 }, maxWidth: 560, mx: 'auto' }} data-testid="doctor-not-found">
        <PersonSearchOutlined sx={{ fontSize: 56, color: 'text.secondary' }} aria-hidden />
        <Typography variant="h5" component="h1">
          {t('public.doctorNotFound')}
        </Typography>
        <Typography color="text.secondary">{t('public.doctorNotFoundText')}</Typography>
        <Button component={RouterLink} to={session ? homePathFor(session.user) : '/login'} variant="contained">
          {session ? t('shell.goToDashboard') : t('public.signInToFindDoctor')}
        </Button>
      </Stack>
    </PublicPageShell>
  );
}

/**
 * The public page of a doctor (/:doctorId): a registered doctor's real profile and open slots to book; the bundled
 * sample profiles at their own ids; any other id is a clear 'Doctor not found'.
 */
export function DoctorLandingPage() {
  const t = useT();
  const { doctorId } = useParams();
  const bundled = bundledProfile(doctorId);
  const doctor = usePublicDoctor(bundled ? undefined : doctorId);
  if (bundled) return <BundledDoctorPage profile={bundled} />;
  if (doctor.isLoading) return <DoctorPageLoading />;
  if (doctor.isError) {
    return (
      <PublicPageShell>
        <Alert
          severity="error"
          action={
            <Button color="inherit" onClick={() => void doctor.refetch()}>
              {t('public.tryAgain')}
            </Button>
          }
        >
          {t('public.pageNotLoaded')}
        </Alert>
      </PublicPageShell>
    );
  }
  if (doctor.data) return <RealDoctorPage doctor={doctor.data} />;
  return <DoctorNotFound />;
}
