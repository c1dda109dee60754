import type { ReactNode } from 'react';
import { Card, CardContent, Chip, Grid, List, ListItem, ListItemIcon, ListItemText, Stack, Typography } from '@mui/material';
import InfoOutlined from '@mui/icons-material/InfoOutlined';
import MedicalServicesOutlined from '@mui/icons-material/MedicalServicesOutlined';
import PlaceOutlined from '@mui/icons-material/PlaceOutlined';
import TranslateOutlined from '@mui/icons-material/TranslateOutlined';
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
import { useT, type Translate } from '../../i18n/useT';
import { useFormat } from '../../i18n/format';

const BOOK_TAB = 3;

function registration(t: Translate, doctor: PublicDoctorProfile): string | null {
  if (!doctor.registration_number) return null;
  const number = doctor.registration_number;
  return doctor.medical_council ? t('public.registrationWithCouncil', { number, council: doctor.medical_council }) : t('public.registration', { number });
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
  const t = useT();
  const f = useFormat();
  const reg = registration(t, doctor);
  const fee = f.rupees(doctor.consultation_fee);
  const feePerConsultation = t('public.feePerConsultation', { fee });
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
                    <Chip icon={<PaymentsOutlined />} label={feePerConsultation} color="primary" variant="outlined" />
                    {doctor.city && <Chip icon={<PlaceOutlined />} label={doctor.city} variant="outlined" sx={{ maxWidth: '100%' }} title={doctor.city} />}
                    <Chip icon={<VideocamOutlined />} label={t('public.videoConsultation')} variant="outlined" />
                    {reg && <Chip icon={<VerifiedOutlined />} label={reg} variant="outlined" sx={{ maxWidth: '100%' }} title={reg} />}
                  </Stack>
                </Stack>
              }
            />
            <ProfileTabs
              initial={BOOK_TAB}
              tabs={[
                {
                  label: t('public.tabAbout'),
                  icon: <InfoOutlined />,
                  panel: (
                    <List dense>
                      <Fact icon={<MedicalServicesOutlined />} primary={doctor.specialty || t('public.specialtyNotGiven')} secondary={doctor.qualification || undefined} />
                      {reg && <Fact icon={<VerifiedOutlined />} primary={t('public.medicalRegistration')} secondary={reg} />}
                    </List>
                  ),
                },
                {
                  label: t('public.tabOfferings'),
                  icon: <MedicalServicesOutlined />,
                  panel: (
                    <Card>
                      <CardContent>
                        <Typography variant="h6" component="h2">
                          {t('public.videoConsultation')}
                        </Typography>
                        <Typography color="text.secondary">
                          {t('public.feeAndLength', { fee, minutes })}
                        </Typography>
                        <Typography sx={{ mt: 1 }}>{t('public.videoCallWith', { name: doctor.name })}</Typography>
                      </CardContent>
                    </Card>
                  ),
                },
                {
                  label: t('public.tabPracticeInfo'),
                  icon: <PlaceOutlined />,
                  panel: (
                    <List dense>
                      {doctor.city && <Fact icon={<PlaceOutlined />} primary={t('public.practisesIn', { city: doctor.city })} />}
                      {doctor.languages.length > 0 && <Fact icon={<TranslateOutlined />} primary={t('public.consultsIn', { languages: f.languageNames(doctor.languages) })} />}
                      <Fact icon={<VideocamOutlined />} primary={t('public.onlineConsultations')} secondary={t('public.byVideo')} />
                      <Fact icon={<PaymentsOutlined />} primary={feePerConsultation} secondary={t('public.appointmentLength', { minutes })} />
                    </List>
                  ),
                },
                { label: t('public.tabBook'), icon: <EventAvailableOutlined />, panel: <BookingPanel doctor={doctor} /> },
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
