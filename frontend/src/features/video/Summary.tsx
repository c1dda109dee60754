import { useEffect, useState } from 'react';
import { Avatar, Box, Button, Card, CardContent, Chip, CircularProgress, Fade, Stack, Typography } from '@mui/material';
import CheckCircleOutlined from '@mui/icons-material/CheckCircleOutlined';
import DownloadOutlined from '@mui/icons-material/DownloadOutlined';
import HomeOutlined from '@mui/icons-material/HomeOutlined';
import { PRODUCT_NAME } from '@telemed/contracts/constants';
import { useFormat } from '../../i18n/format';
import { useT, type MessageId, type Translate } from '../../i18n/useT';
import { SummaryActions } from '../records/SummaryActions';
import { SUMMARY_FADE_IN_MS, dayLabel, hourMinute, initialsOf, roleDisplayText, summaryFileName, summaryText, type CallSummary } from './model';

const avatarClass = (role: string, local: boolean) => (local ? 'local' : /doctor|healthcare/i.test(role) ? 'doctor' : 'patient');
const AVATAR_COLOR = { local: 'primary.main', doctor: 'secondary.main', patient: 'info.main' } as const;

/** The summary as a text file, in the language it is read in. */
function download(summary: CallSummary, t: Translate) {
  const blob = new Blob([summaryText(summary, new Date(), t)], { type: 'text/plain;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = summaryFileName(summary.isoDate);
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Seed 001 §2 consultation summary, from the server's record of the call; fades in after 100 ms. */
export function Summary({ summary, doctor, onHome }: { summary: CallSummary | null; doctor: boolean; onHome(): void }) {
  const t = useT();
  const { locale, count } = useFormat();
  const [shown, setShown] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setShown(true), SUMMARY_FADE_IN_MS);
    return () => clearTimeout(timer);
  }, []);
  const d = summary?.callDetails;
  // [test id, label, value]: the times and the day in the reader's language, in the summary's zone.
  const items: Array<[string, MessageId, string]> =
    summary && d
      ? [
          ['duration', 'video.summaryDuration', d.durationFormatted || '00:00'],
          ['date', 'video.summaryDate', dayLabel(summary.startedAt, summary.timeZone, locale) ?? t('video.today')],
          ['start-time', 'video.summaryStartTime', hourMinute(summary.startedAt, summary.timeZone, locale)],
          ['end-time', 'video.summaryEndTime', hourMinute(summary.endedAt, summary.timeZone, locale)],
          ['participants', 'video.summaryParticipants', count(d.totalParticipants || 1)],
          ...(d.endedAutomatically ? ([['status', 'video.summaryStatus', t('video.autoEnded')]] as Array<[string, MessageId, string]>) : []),
        ]
      : [];
  return (
    <Fade in={shown} timeout={400}>
      <Box sx={{ maxWidth: 760, mx: 'auto' }} data-testid="consultation-summary" data-auto-ended={Boolean(d?.endedAutomatically)}>
        <Card>
          <CardContent sx={{ p: { xs: 2, sm: 4 } }}>
            <Stack spacing={1} sx={{ alignItems: 'center', textAlign: 'center', mb: 3 }}>
              <CheckCircleOutlined color="success" sx={{ fontSize: 56 }} aria-hidden />
              <Typography variant="h4" component="h1" sx={{ fontSize: { xs: '1.75rem', sm: '2.125rem' } }}>
                {t('video.complete')}
              </Typography>
              <Typography color="text.secondary" data-testid="summary-subtitle">
                {d?.endedAutomatically ? t('video.autoEndedSubtitle') : t('video.thanks', { product: PRODUCT_NAME })}
              </Typography>
            </Stack>
            {!summary ? (
              <Box sx={{ display: 'grid', placeItems: 'center', py: 4 }}>
                <CircularProgress aria-label={t('video.loadingSummary')} />
              </Box>
            ) : (
              <>
                <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
                  {t('video.sessionSummary')}
                </Typography>
                <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: { xs: 'repeat(2, 1fr)', sm: 'repeat(3, 1fr)' }, gap: 1.5, m: 0, mb: 3 }}>
                  {items.map(([key, label, value]) => (
                    // A <div> group directly in the <dl>, holding its <dt> and <dd>: a card only in looks.
                    <Box key={key} sx={{ border: 1, borderColor: 'divider', borderRadius: 2, p: 1.5, bgcolor: 'background.paper' }}>
                      <Typography component="dt" variant="caption" color="text.secondary">
                        {t(label)}
                      </Typography>
                      <Typography component="dd" sx={{ m: 0, fontWeight: 600 }} data-testid={`summary-${key}`}>
                        {value}
                      </Typography>
                    </Box>
                  ))}
                </Box>
                <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
                  {t('video.summaryParticipants')}
                </Typography>
                <Stack component="ul" spacing={1} sx={{ listStyle: 'none', p: 0, m: 0, mb: 3 }} data-testid="summary-participants">
                  {summary.callDetails.participants.map((p) => {
                    const kind = avatarClass(p.role, p.isLocal);
                    return (
                      <Stack sx={{ alignItems: 'center' }} component="li" key={`${p.name}-${p.role}`} direction="row" spacing={1.5}>
                        <Avatar sx={{ bgcolor: AVATAR_COLOR[kind] }} className={`avatar-${kind}`} aria-hidden>
                          {initialsOf(p.name)}
                        </Avatar>
                        <Box sx={{ minWidth: 0 }}>
                          <Typography sx={{ fontWeight: 600 }} noWrap>
                            {p.name} {p.isLocal && <Chip component="span" size="small" label={t('video.you')} color="primary" sx={{ ml: 0.5 }} />}
                          </Typography>
                          <Typography variant="body2" color="text.secondary">
                            {roleDisplayText(t, p.role)}
                          </Typography>
                        </Box>
                      </Stack>
                    );
                  })}
                </Stack>
                <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
                  {t(doctor ? 'video.doctorActions' : 'video.patientActions')}
                </Typography>
                <SummaryActions doctor={doctor} patientName={summary.patientName} />
                <Stack direction={{ xs: 'column-reverse', sm: 'row' }} spacing={1} sx={{ justifyContent: 'flex-end', mt: 3 }}>
                  <Button variant="outlined" startIcon={<DownloadOutlined />} onClick={() => download(summary, t)}>
                    {t('video.downloadSummary')}
                  </Button>
                  <Button variant="contained" startIcon={<HomeOutlined />} onClick={onHome}>
                    {t('video.backToHome')}
                  </Button>
                </Stack>
              </>
            )}
          </CardContent>
        </Card>
      </Box>
    </Fade>
  );
}
