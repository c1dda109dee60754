import { Link as RouterLink, useNavigate } from 'react-router';
import { Box, Button, Card, CardContent, Chip, Grid, Link, Stack, Typography } from '@mui/material';
import ArrowForward from '@mui/icons-material/ArrowForward';
import InfoOutlined from '@mui/icons-material/InfoOutlined';
import EventOutlined from '@mui/icons-material/EventOutlined';
import MailOutline from '@mui/icons-material/MailOutlined';
import { PLANS, ROADMAP } from './content';
import { PRODUCT_NAME } from '@telemed/contracts/constants';

const FEATURES = [
  ['One-click Google sign-in', 'No passwords to remember.'],
  ['Video consultations', 'Meet your doctor from home, on any device.'],
  ['Digital prescriptions', 'Clear, signed, always at hand.'],
  ['Encrypted storage', 'Your records stay private.'],
  ['Doctor dashboard', 'Requests, schedule and revenue in one place.'],
  ['Branding and blog tools', 'Educate patients under your own name.'],
] as const;

export function WelcomePage() {
  const navigate = useNavigate();
  return (
    <Box component="main" sx={{ maxWidth: 1100, mx: 'auto', p: { xs: 2, sm: 4 } }}>
      <Stack spacing={2} sx={{ mb: 4 }}>
        <Typography variant="h3" component="h1">
          {PRODUCT_NAME}
        </Typography>
        <Typography variant="h6" component="p" color="text.secondary">
          Video consultations with doctors across India — for patients, independent doctors and clinic networks.
        </Typography>
        <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
          <Button variant="contained" endIcon={<ArrowForward />} onClick={() => navigate('/login')}>
            Get Started
          </Button>
          <Button variant="outlined" startIcon={<InfoOutlined />} href="#features">
            Learn More
          </Button>
          <Button startIcon={<EventOutlined />} href="mailto:demo@telemed.example.in">Schedule a Demo</Button>
          <Button startIcon={<MailOutline />} href="mailto:sales@telemed.example.in">Contact Sales</Button>
        </Stack>
      </Stack>
      <Grid container spacing={2} id="features">
        {FEATURES.map(([title, text]) => (
          <Grid key={title} size={{ xs: 12, sm: 6, md: 4 }}>
            <Card sx={{ height: '100%' }}>
              <CardContent>
                <Typography variant="h6" component="h2">
                  {title}
                </Typography>
                <Typography color="text.secondary">{text}</Typography>
              </CardContent>
            </Card>
          </Grid>
        ))}
      </Grid>
      <Typography variant="h5" component="h2" sx={{ mt: 4, mb: 1 }}>
        Individual practice or network partnership
      </Typography>
      <Typography color="text.secondary">Run your own practice on {PRODUCT_NAME}, or bring your clinic network and manage its doctors and staff together.</Typography>
      <Typography variant="h5" component="h2" sx={{ mt: 4, mb: 1 }}>
        Plans
      </Typography>
      <Grid container spacing={2}>
        {PLANS.map((plan) => (
          <Grid key={plan.name} size={{ xs: 12, sm: 6, md: 3 }}>
            <Card>
              <CardContent>
                <Typography variant="subtitle1" component="h3">
                  {plan.name}
                </Typography>
                <Typography>{plan.price}</Typography>
              </CardContent>
            </Card>
          </Grid>
        ))}
      </Grid>
      <Typography variant="h5" component="h2" sx={{ mt: 4, mb: 1 }}>
        Roadmap
      </Typography>
      <Stack spacing={1}>
        {ROADMAP.map((item) => (
          <Stack key={item} direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <Typography>{item}</Typography>
            <Chip size="small" label="In Development" />
          </Stack>
        ))}
      </Stack>
      <Typography sx={{ mt: 4 }}>
        <Link component={RouterLink} to="/support">
          Support Team Access
        </Link>
      </Typography>
    </Box>
  );
}
