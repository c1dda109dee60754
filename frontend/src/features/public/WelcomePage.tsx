import { Link as RouterLink, useNavigate } from 'react-router';
import { Box, Button, Card, CardContent, Chip, Grid, Link, Stack, Typography } from '@mui/material';
import ArrowForward from '@mui/icons-material/ArrowForward';
import InfoOutlined from '@mui/icons-material/InfoOutlined';
import EventOutlined from '@mui/icons-material/EventOutlined';
import MailOutline from '@mui/icons-material/MailOutlined';
import { PLANS, ROADMAP } from './content';
import { PRODUCT_NAME } from '@telemed/contracts/constants';
import { useT, type MessageId } from '../../i18n/useT';
import { useFormat } from '../../i18n/format';
import { LanguagePicker } from '../../i18n/LanguagePicker';

/** The product's features: title and line (message ids). */
const FEATURES: ReadonlyArray<readonly [MessageId, MessageId]> = [
  ['public.featureSignInTitle', 'public.featureSignInText'],
  ['public.featureVideoTitle', 'public.featureVideoText'],
  ['public.featurePrescriptionsTitle', 'public.featurePrescriptionsText'],
  ['public.featureStorageTitle', 'public.featureStorageText'],
  ['public.featureDashboardTitle', 'public.featureDashboardText'],
  ['public.featureBrandingTitle', 'public.featureBrandingText'],
];

export function WelcomePage() {
  const navigate = useNavigate();
  const t = useT();
  const f = useFormat();
  return (
    <Box component="main" sx={{ maxWidth: 1100, mx: 'auto', p: { xs: 2, sm: 4 } }}>
      <Stack spacing={2} sx={{ mb: 4 }}>
        <Stack direction="row" sx={{ alignItems: 'flex-start', justifyContent: 'space-between', gap: 2, flexWrap: 'wrap' }}>
          <Typography variant="h3" component="h1">
            {PRODUCT_NAME}
          </Typography>
          <LanguagePicker />
        </Stack>
        <Typography variant="h6" component="p" color="text.secondary">
          {t('public.tagline')}
        </Typography>
        <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
          <Button variant="contained" endIcon={<ArrowForward />} onClick={() => navigate('/login')}>
            {t('public.getStarted')}
          </Button>
          <Button variant="outlined" startIcon={<InfoOutlined />} href="#features">
            {t('public.learnMore')}
          </Button>
          <Button startIcon={<EventOutlined />} href="mailto:demo@telemed.example.in">
            {t('public.scheduleDemo')}
          </Button>
          <Button startIcon={<MailOutline />} href="mailto:sales@telemed.example.in">
            {t('public.contactSales')}
          </Button>
        </Stack>
      </Stack>
      <Grid container spacing={2} id="features">
        {FEATURES.map(([title, text]) => (
          <Grid key={title} size={{ xs: 12, sm: 6, md: 4 }}>
            <Card sx={{ height: '100%' }}>
              <CardContent>
                <Typography variant="h6" component="h2">
                  {t(title)}
                </Typography>
                <Typography color="text.secondary">{t(text)}</Typography>
              </CardContent>
            </Card>
          </Grid>
        ))}
      </Grid>
      <Typography variant="h5" component="h2" sx={{ mt: 4, mb: 1 }}>
        {t('public.practiceOrNetwork')}
      </Typography>
      <Typography color="text.secondary">{t('public.practiceOrNetworkText', { product: PRODUCT_NAME })}</Typography>
      <Typography variant="h5" component="h2" sx={{ mt: 4, mb: 1 }}>
        {t('public.plans')}
      </Typography>
      <Grid container spacing={2}>
        {PLANS.map((plan) => (
          <Grid key={plan.nameId} size={{ xs: 12, sm: 6, md: 3 }}>
            <Card>
              <CardContent>
                <Typography variant="subtitle1" component="h3">
                  {t(plan.nameId)}
                </Typography>
                <Typography>{t(plan.priceId, { amount: f.rupees(plan.amount) })}</Typography>
              </CardContent>
            </Card>
          </Grid>
        ))}
      </Grid>
      <Typography variant="h5" component="h2" sx={{ mt: 4, mb: 1 }}>
        {t('public.roadmap')}
      </Typography>
      <Stack spacing={1}>
        {ROADMAP.map((item) => (
          <Stack key={item} direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <Typography>{t(item)}</Typography>
            <Chip size="small" label={t('public.inDevelopment')} />
          </Stack>
        ))}
      </Stack>
      <Typography sx={{ mt: 4 }}>
        <Link component={RouterLink} to="/support">
          {t('public.supportTeamAccess')}
        </Link>
      </Typography>
    </Box>
  );
}
