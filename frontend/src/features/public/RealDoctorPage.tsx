import type { ReactNode } from 'react';
import { Card, CardContent, Chip, Grid, List, ListItem, ListItemIcon, ListItemText, Stack, Typography } from '@mui/material';
import InfoOutlined from '@mui/icons-material/InfoOutlined';
import MedicalServicesOutlined from '@mui/icons-material/MedicalServicesOutlined';
import PlaceOutlined from '@mui/icons-material/PlaceOutlined';
import EventAvailableOutlined from '@mui/icons-material/EventAvailableOutlined';
import VideocamOutlined from '@mui/icons-material/VideocamOutlined';
import VerifiedOutlined from '@mui/icons-material/VerifiedOutlined';
import PaymentsOutlined from '@mui/icons-material/PaymentsOutlined';
import type { PublicDoctorProfile } from '@telemed/contracts';
import { PublicPageShell } from './PublicPageShell';
import { DoctorHeader } from './DoctorHeader';
import { ProfileTabs } from './ProfileTabs';
import { BookingPanel } from './BookingPanel';
import { SignInCard } from './SignInCard';
import { DoctorPosts } from '../blog/DoctorPosts';
import { formatRupees } from '../../lib/money';

const BOOK_TAB = 3;

function registration(doctor: PublicDoctorProfile): string | null {
  if (!doctor.registration_number) return null;
  return `Reg. ${doctor.registration_number}${doctor.medical_council ? `, ${doctor.medical_council}` : ''}`;
}

function Fact({ icon, primary, secondary }: { icon: ReactNode; primary: string; secondary?: string }) {
  return (
    <ListItem disableGutters>
      <ListItemIcon sx={{ minWidth: 36, color: 'primary.main' }}>{icon}</ListItemIcon>
      <ListItemText primary={primary} secondary={secondary} />
    </ListItem>
  );
}

/** A registered doctor's public page: what the server knows of them, and their open slots to book (shown first). */
export function RealDoctorPage({ doctor }: { doctor: PublicDoctorProfile }) {
  const reg = registration(doctor);
  const fee = formatRupees(doctor.consultation_fee);
  const minutes = doctor.appointment_duration_minutes || 30;
  return (
    <PublicPageShell>
      <Grid container spacing={3}>
        <Grid size={{ xs: 12, md: 8 }}>
          <Stack spacing={3}>
            <DoctorHeader
              name={doctor.name}
              facts={
                <Stack spacing={1}>
                  <Typography sx={{ overflowWrap: 'anywhere' }}>
                    {[doctor.specialty, doctor.qualification].filter(Boolean).join(' · ')}
                  </Typography>
                  <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
                    <Chip icon={<PaymentsOutlined />} label={`${fee} per consultation`} color="primary" variant="outlined" />
                    {doctor.city && <Chip icon={<PlaceOutlined />} label={doctor.city} variant="outlined" sx={{ maxWidth: '100%' }} title={doctor.city} />}
                    <Chip icon={<VideocamOutlined />} label="Video consultation" variant="outlined" />
                    {reg && <Chip icon={<VerifiedOutlined />} label={reg} variant="outlined" sx={{ maxWidth: '100%' }} title={reg} />}
                  </Stack>
                </Stack>
              }
            />
            <ProfileTabs
              initial={BOOK_TAB}
              tabs={[
                {
                  label: 'About Doctor',
                  icon: <InfoOutlined />,
                  panel: (
                    <List dense>
                      <Fact icon={<MedicalServicesOutlined />} primary={doctor.specialty || 'Specialty not given'} secondary={doctor.qualification || undefined} />
                      {reg && <Fact icon={<VerifiedOutlined />} primary="Medical registration" secondary={reg} />}
                    </List>
                  ),
                },
                {
                  label: 'Medical Offerings',
                  icon: <MedicalServicesOutlined />,
                  panel: (
                    <Card>
                      <CardContent>
                        <Typography variant="h6" component="h2">
                          Video consultation
                        </Typography>
                        <Typography color="text.secondary">
                          {fee} · {minutes} minutes
                        </Typography>
                        <Typography sx={{ mt: 1 }}>A private video call with {doctor.name}, who reviews and approves your request first.</Typography>
                      </CardContent>
                    </Card>
                  ),
                },
                {
                  label: 'Practice Info',
                  icon: <PlaceOutlined />,
                  panel: (
                    <List dense>
                      {doctor.city && <Fact icon={<PlaceOutlined />} primary={`Practises in ${doctor.city}`} />}
                      <Fact icon={<VideocamOutlined />} primary="Online consultations" secondary="By video, from wherever you are" />
                      <Fact icon={<PaymentsOutlined />} primary={`${fee} per consultation`} secondary={`${minutes}-minute appointments`} />
                    </List>
                  ),
                },
                { label: 'Book Consultation', icon: <EventAvailableOutlined />, panel: <BookingPanel doctor={doctor} /> },
              ]}
            />
          </Stack>
        </Grid>
        <Grid size={{ xs: 12, md: 4 }}>
          <Stack spacing={3}>
            <SignInCard />
            <DoctorPosts doctorId={doctor.doctor_id} />
          </Stack>
        </Grid>
      </Grid>
    </PublicPageShell>
  );
}
