import { useState } from 'react';
import { Link as RouterLink, useParams } from 'react-router';
import { Box, Card, CardContent, Chip, Grid, Link, Stack, Tab, Tabs, Typography } from '@mui/material';
import { profileFor } from './content';
import { SignInButtons } from '../auth/LoginPage';

/** The public page of a doctor: four tabs and sign-in beside them. Unknown ids fall back to a bundled profile. */
export function DoctorLandingPage() {
  const { doctorId } = useParams();
  const profile = profileFor(doctorId);
  const [tab, setTab] = useState(0);
  return (
    <Box sx={{ maxWidth: 1100, mx: 'auto', p: { xs: 2, sm: 4 } }}>
      <Grid container spacing={3}>
        <Grid size={{ xs: 12, md: 8 }}>
          <Typography variant="h4" component="h1">
            {profile.nameInEnglish}
          </Typography>
          {profile.name !== profile.nameInEnglish && <Typography color="text.secondary">{profile.name}</Typography>}
          <Typography>
            {profile.credentials} · {profile.specialization} · {profile.experience}
          </Typography>
          <Typography color="text.secondary">
            ★ {profile.rating} · {profile.consultations.toLocaleString('en-IN')} consultations · ₹{profile.consultationFee}
          </Typography>
          <Tabs value={tab} onChange={(_e, v: number) => setTab(v)} variant="scrollable" sx={{ mt: 2 }}>
            <Tab label="About Doctor" />
            <Tab label="Medical Offerings" />
            <Tab label="Practice Info" />
            <Tab label="Book Consultation" />
          </Tabs>
          <Box sx={{ mt: 2 }}>
            {tab === 0 && (
              <Stack spacing={1}>
                <Typography>{profile.about}</Typography>
                <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
                  {profile.specialties.map((s) => (
                    <Chip key={s} label={s} />
                  ))}
                </Stack>
                {profile.blogPosts.length > 0 && (
                  <Box component="section" aria-label="Articles">
                    <Typography variant="subtitle2">Articles</Typography>
                    {/* The Patient Education Hub is not published yet: titles only, no links that lead nowhere. */}
                    {profile.blogPosts.map((post) => (
                      <Typography key={post.link} variant="body2" color="text.secondary">
                        {post.titleInEnglish} · {post.date}
                      </Typography>
                    ))}
                  </Box>
                )}
              </Stack>
            )}
            {tab === 1 &&
              profile.offerings.map((o) => (
                <Card key={o.id} sx={{ mb: 1 }}>
                  <CardContent>
                    <Typography variant="h6">{o.name}</Typography>
                    <Typography>{o.description}</Typography>
                    <Typography color="text.secondary">
                      ₹{o.price} · {o.duration}
                    </Typography>
                  </CardContent>
                </Card>
              ))}
            {tab === 2 && (
              <Stack spacing={1}>
                <Typography>{profile.addressInEnglish}</Typography>
                <Typography>{profile.availableTime}</Typography>
                <Typography>Languages: {profile.languages.join(', ')}</Typography>
              </Stack>
            )}
            {tab === 3 && <Typography>Sign in to see {profile.nameInEnglish}&apos;s open slots and send a request.</Typography>}
          </Box>
        </Grid>
        <Grid size={{ xs: 12, md: 4 }}>
          <Card>
            <CardContent>
              <SignInButtons />
            </CardContent>
          </Card>
        </Grid>
      </Grid>
      <Typography sx={{ mt: 4 }}>
        <Link component={RouterLink} to="/support">
          Support Access
        </Link>
      </Typography>
    </Box>
  );
}
