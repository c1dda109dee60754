import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { Alert, Box, Card, CardContent, CircularProgress, Stack, Typography } from '@mui/material';
import VerifiedOutlined from '@mui/icons-material/VerifiedOutlined';
import GppBadOutlined from '@mui/icons-material/GppBadOutlined';
import { ApiError } from '../../lib/api';
import { recordsApi } from './api';

const issuedOn = (date: string) => new Date(date.length === 10 ? `${date}T00:00:00` : date).toLocaleDateString('en-IN', { day: 'numeric', month: 'long', year: 'numeric' });

/**
 * `/verify/{code}` (issue 14), public: what a pharmacist needs from the QR code of an e-prescription, and nothing of
 * the patient: the prescribing doctor, the date, and whether the prescription is genuine.
 */
export function VerifyPage() {
  const { code = '' } = useParams();
  const result = useQuery({
    queryKey: ['verify', code],
    queryFn: () => recordsApi.verify(code).catch((e: unknown) => (e instanceof ApiError && e.status === 404 ? { genuine: false, doctor: null, issued_on: null } : Promise.reject(e))),
    retry: false,
  });
  const data = result.data;
  return (
    <Box component="main" sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', p: 2, bgcolor: 'background.default' }}>
      <Card sx={{ width: '100%', maxWidth: 480 }}>
        <CardContent sx={{ p: { xs: 2, sm: 4 } }}>
          <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
            Prescription verification
          </Typography>
          {result.isLoading && <CircularProgress aria-label="Checking the prescription" />}
          {result.isError && <Alert severity="error">The prescription could not be checked. Please try again.</Alert>}
          {data &&
            (data.genuine && data.doctor ? (
              <Stack spacing={1.5} data-testid="verify-result" data-genuine="true">
                <Stack direction="row" spacing={1} sx={{ alignItems: 'center', color: 'success.main' }}>
                  <VerifiedOutlined aria-hidden />
                  <Typography sx={{ fontWeight: 700 }} role="status">
                    Genuine prescription
                  </Typography>
                </Stack>
                <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 2, rowGap: 1 }}>
                  <Typography component="dt" color="text.secondary">
                    Doctor
                  </Typography>
                  <Typography component="dd" sx={{ m: 0, fontWeight: 600 }}>
                    {data.doctor.name}
                    {data.doctor.qualification ? `, ${data.doctor.qualification}` : ''}
                  </Typography>
                  <Typography component="dt" color="text.secondary">
                    Registration
                  </Typography>
                  <Typography component="dd" sx={{ m: 0 }}>
                    {data.doctor.registration_number} · {data.doctor.medical_council}
                  </Typography>
                  <Typography component="dt" color="text.secondary">
                    Issued on
                  </Typography>
                  <Typography component="dd" sx={{ m: 0 }}>
                    {data.issued_on ? issuedOn(data.issued_on) : '—'}
                  </Typography>
                </Box>
              </Stack>
            ) : (
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center', color: 'error.main' }} data-testid="verify-result" data-genuine="false">
                <GppBadOutlined aria-hidden />
                <Typography sx={{ fontWeight: 700 }} role="status">
                  Not a genuine prescription: no prescription has this verification code.
                </Typography>
              </Stack>
            ))}
        </CardContent>
      </Card>
    </Box>
  );
}
