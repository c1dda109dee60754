import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { Alert, Box, Card, CardContent, CircularProgress, Stack, Typography } from '@mui/material';
import VerifiedOutlined from '@mui/icons-material/VerifiedOutlined';
import GppBadOutlined from '@mui/icons-material/GppBadOutlined';
import { ApiError } from '../../lib/api';
import { useFormat } from '../../i18n/format';
import { useT } from '../../i18n/useT';
import { recordsApi } from './api';

/** '27 November 2026' in the chosen language. */
const ISSUED_ON = { day: 'numeric', month: 'long', year: 'numeric' } as const;

/**
 * `/verify/{code}` (issue 14), public: what a pharmacist needs from the QR code of an e-prescription, and nothing of
 * the patient: the prescribing doctor, the date, and whether the prescription is genuine.
 */
export function VerifyPage() {
  const t = useT();
  const f = useFormat();
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
            {t('records.verifyTitle')}
          </Typography>
          {result.isLoading && <CircularProgress aria-label={t('records.checkingPrescription')} />}
          {result.isError && <Alert severity="error">{t('records.verifyFailed')}</Alert>}
          {data &&
            (data.genuine && data.doctor ? (
              <Stack spacing={1.5} data-testid="verify-result" data-genuine="true">
                <Stack direction="row" spacing={1} sx={{ alignItems: 'center', color: 'success.main' }}>
                  <VerifiedOutlined aria-hidden />
                  <Typography sx={{ fontWeight: 700 }} role="status">
                    {t('records.genuinePrescription')}
                  </Typography>
                </Stack>
                <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 2, rowGap: 1 }}>
                  <Typography component="dt" color="text.secondary">
                    {t('records.verifyDoctor')}
                  </Typography>
                  <Typography component="dd" sx={{ m: 0, fontWeight: 600 }}>
                    {data.doctor.name}
                    {data.doctor.qualification ? `, ${data.doctor.qualification}` : ''}
                  </Typography>
                  <Typography component="dt" color="text.secondary">
                    {t('records.verifyRegistration')}
                  </Typography>
                  <Typography component="dd" sx={{ m: 0 }}>
                    {data.doctor.registration_number} · {data.doctor.medical_council}
                  </Typography>
                  <Typography component="dt" color="text.secondary">
                    {t('records.verifyIssuedOn')}
                  </Typography>
                  <Typography component="dd" sx={{ m: 0 }}>
                    {data.issued_on ? f.date(data.issued_on, ISSUED_ON) : '—'}
                  </Typography>
                </Box>
              </Stack>
            ) : (
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center', color: 'error.main' }} data-testid="verify-result" data-genuine="false">
                <GppBadOutlined aria-hidden />
                <Typography sx={{ fontWeight: 700 }} role="status">
                  {t('records.notGenuine')}
                </Typography>
              </Stack>
            ))}
        </CardContent>
      </Card>
    </Box>
  );
}
