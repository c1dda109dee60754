import { useParams } from 'react-router';
import { Alert, Box, Button, CircularProgress } from '@mui/material';
import { DOCTOR_PROFILES, profileFor } from './content';
import { usePublicDoctor } from './usePublicDoctor';
import { PublicPageShell } from './PublicPageShell';
import { RealDoctorPage } from './RealDoctorPage';
import { BundledDoctorPage } from './BundledDoctorPage';

/**
 * A doctor's page while the profile is on its way. The build also prerenders it into doctor.html (see prerender.tsx),
 * which the server sends for a registered doctor's page, so the page's frame paints before the scripts have loaded.
 */
export function DoctorPageLoading() {
  return (
    <PublicPageShell>
      <Box sx={{ display: 'grid', placeItems: 'center', py: 8 }}>
        <CircularProgress aria-label="Loading the doctor's page" />
      </Box>
    </PublicPageShell>
  );
}

/**
 * The public page of a doctor (/:doctorId): a registered doctor's real profile and open slots to book; the bundled
 * sample profiles for their own ids; an id the server does not know falls back to a bundled profile (the seeds).
 */
export function DoctorLandingPage() {
  const { doctorId } = useParams();
  const bundled = DOCTOR_PROFILES.find((p) => p.id === doctorId);
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
              Try again
            </Button>
          }
        >
          This doctor&apos;s page could not be loaded.
        </Alert>
      </PublicPageShell>
    );
  }
  if (doctor.data) return <RealDoctorPage doctor={doctor.data} />;
  return <BundledDoctorPage profile={profileFor(doctorId)} unknownId={Boolean(doctorId)} />;
}
