import { Link as RouterLink, useLocation } from 'react-router';
import { Box, Card, CardContent, Chip, Grid, Link, Stack, Typography } from '@mui/material';
import InfoOutlined from '@mui/icons-material/InfoOutlined';
import MedicalServicesOutlined from '@mui/icons-material/MedicalServicesOutlined';
import PlaceOutlined from '@mui/icons-material/PlaceOutlined';
import EventAvailableOutlined from '@mui/icons-material/EventAvailableOutlined';
import EventBusyOutlined from '@mui/icons-material/EventBusyOutlined';
import { BOOK_CONSULTATION_HASH, type DoctorProfile } from './content';
import { PublicPageShell } from './PublicPageShell';
import { DoctorHeader } from './DoctorHeader';
import { ProfileTabs } from './ProfileTabs';
import { SignInCard } from './SignInCard';
import { EmptyState } from '../../components/EmptyState';
import { useT } from '../../i18n/useT';
import { useFormat } from '../../i18n/format';

/**
 * A profile bundled with the client (the seeds' sample doctors), at its own id only: labelled as a sample, with no
 * figures it cannot have (no rating, count of consultations or years of practice) and no slots, since it has none.
 */
export function BundledDoctorPage({ profile }: { profile: DoctorProfile }) {
  // An article's Book Consultation link opens this page on its Book Consultation tab.
  const { hash } = useLocation();
  const t = useT();
  const f = useFormat();
  return (
    <PublicPageShell>
      <Grid container spacing={3}>
        <Grid size={{ xs: 12, md: 8 }}>
          <Stack spacing={3}>
            <DoctorHeader
              name={profile.nameInEnglish}
              subtitle={profile.name !== profile.nameInEnglish ? profile.name : undefined}
              badge={<Chip size="small" label={t('public.sampleProfile')} sx={{ mb: 0.5 }} />}
              facts={
                <Stack spacing={0.5}>
                  <Typography>
                    {profile.credentials} · {profile.specialization}
                  </Typography>
                  <Typography color="text.secondary">{t('public.feePerConsultation', { fee: f.rupees(profile.consultationFee) })}</Typography>
                </Stack>
              }
            />
            <ProfileTabs
              initial={hash === BOOK_CONSULTATION_HASH ? 3 : 0}
              tabs={[
                {
                  label: t('public.tabAbout'),
                  icon: <InfoOutlined />,
                  panel: (
                    <Stack spacing={1.5}>
                      <Typography>{profile.about}</Typography>
                      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
                        {profile.specialties.map((s) => (
                          <Chip key={s} label={s} variant="outlined" />
                        ))}
                      </Stack>
                      {profile.blogPosts.length > 0 && (
                        <Box component="section" aria-label={t('public.articles')}>
                          <Typography variant="subtitle2" component="h2">
                            {t('public.articles')}
                          </Typography>
                          {profile.blogPosts.map((post) => (
                            <Typography key={post.link} variant="body2" color="text.secondary">
                              <Link component={RouterLink} to={post.link} sx={{ fontWeight: 600 }}>
                                {post.titleInEnglish}
                              </Link>{' '}
                              · {post.date}
                            </Typography>
                          ))}
                        </Box>
                      )}
                    </Stack>
                  ),
                },
                {
                  label: t('public.tabOfferings'),
                  icon: <MedicalServicesOutlined />,
                  panel: (
                    <Stack spacing={1}>
                      {profile.offerings.map((o) => (
                        <Card key={o.id}>
                          <CardContent>
                            <Typography variant="h6" component="h2">
                              {o.name}
                            </Typography>
                            <Typography>{o.description}</Typography>
                            <Typography color="text.secondary">
                              {f.rupees(o.price)} · {o.duration}
                            </Typography>
                          </CardContent>
                        </Card>
                      ))}
                    </Stack>
                  ),
                },
                {
                  label: t('public.tabPracticeInfo'),
                  icon: <PlaceOutlined />,
                  panel: (
                    <Stack spacing={1}>
                      <Typography>{profile.addressInEnglish}</Typography>
                      <Typography>{profile.availableTime}</Typography>
                      <Typography>{t('public.languagesList', { languages: profile.languages.join(', ') })}</Typography>
                    </Stack>
                  ),
                },
                {
                  label: t('public.tabBook'),
                  icon: <EventAvailableOutlined />,
                  panel: (
                    <EmptyState
                      icon={EventBusyOutlined}
                      title={t('public.sampleNoSlotsTitle')}
                      text={t('public.sampleNoSlotsText')}
                    />
                  ),
                },
              ]}
            />
          </Stack>
        </Grid>
        <Grid size={{ xs: 12, md: 4 }}>
          <SignInCard />
        </Grid>
      </Grid>
    </PublicPageShell>
  );
}
