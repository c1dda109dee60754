import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, Box, Card, CardContent, Chip, CircularProgress, Stack, TextField, Typography } from '@mui/material';
import type { MessageChannel, OutboxEntry } from '@telemed/contracts';
import { ApiError } from '../../lib/api';
import { call } from '../../lib/client';
import { useFormat } from '../../i18n/format';
import { useT, type MessageId } from '../../i18n/useT';

/** How often the list is asked again while the page is shown (TanStack Query pauses it while the tab is hidden). */
export const OUTBOX_POLL_MS = 3000;
/** How long the recipient filter waits for typing to stop before it asks. */
export const FILTER_DEBOUNCE_MS = 300;

const CHANNEL_NAMES: Record<MessageChannel, MessageId> = { email: 'account.channelEmail', sms: 'account.channelSms', whatsapp: 'account.channelWhatsapp' };
const WHEN: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'short', hour: 'numeric', minute: '2-digit', second: '2-digit' };

const isNotFound = (error: unknown) => error instanceof ApiError && error.status === 404;

function OutboxItem({ entry }: { entry: OutboxEntry }) {
  const t = useT();
  const f = useFormat();
  return (
    <Card variant="outlined" component="article" data-testid="outbox-entry">
      <CardContent>
        <Stack spacing={0.75}>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 0.5 }}>
            <Chip size="small" label={t(CHANNEL_NAMES[entry.channel])} />
            <Typography variant="body2" color="text.secondary" component="time" dateTime={entry.created_at}>
              {f.date(entry.created_at, WHEN)}
            </Typography>
          </Stack>
          <Typography sx={{ overflowWrap: 'anywhere' }}>{t('auth.outboxTo', { to: entry.to })}</Typography>
          <Typography variant="caption" color="text.secondary" sx={{ fontFamily: 'monospace' }}>
            {entry.kind} · {entry.language}
          </Typography>
          {entry.subject && <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>{entry.subject}</Typography>}
          <Typography component="div" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {entry.text}
          </Typography>
        </Stack>
      </CardContent>
    </Card>
  );
}

/**
 * Development only: what the outbox received in place of e-mail, SMS and WhatsApp (sign-in codes among them), newest
 * first, refreshed every few seconds. In production the server answers 404 and the page says so.
 */
export function DevOutboxPage() {
  const t = useT();
  const [typed, setTyped] = useState('');
  const [recipient, setRecipient] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setRecipient(typed.trim()), FILTER_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [typed]);
  const outbox = useQuery({
    queryKey: ['dev', 'outbox', recipient],
    queryFn: ({ signal }) => call('listDevOutbox', { query: recipient ? { recipient } : {}, signal }),
    // Not in production (404): nothing to ask again. A hidden tab is not polled (refetchIntervalInBackground is off).
    refetchInterval: (query) => (isNotFound(query.state.error) ? false : OUTBOX_POLL_MS),
    staleTime: 0,
    // A new filter keeps the list on screen until its answer comes.
    placeholderData: (previous) => previous,
  });
  const entries = outbox.data ? [...outbox.data].sort((a, b) => b.created_at.localeCompare(a.created_at)) : [];

  return (
    <Box component="main" sx={{ maxWidth: 760, mx: 'auto', p: 2 }}>
      <Stack spacing={2}>
        <Typography variant="h5" component="h1">
          {t('auth.outboxTitle')}
        </Typography>
        {isNotFound(outbox.error) ? (
          <Alert severity="info">{t('auth.outboxUnavailable')}</Alert>
        ) : (
          <>
            <Typography color="text.secondary">{t('auth.outboxIntro')}</Typography>
            <TextField
              label={t('auth.outboxRecipient')}
              helperText={t('auth.outboxRecipientHelp')}
              placeholder="+919876543210"
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
              slotProps={{ htmlInput: { maxLength: 320 } }}
            />
            {outbox.isLoading && <CircularProgress size={24} aria-label={t('auth.outboxLoading')} />}
            {outbox.isError && <Alert severity="warning">{t('auth.outboxNotLoaded')}</Alert>}
            {outbox.data && entries.length === 0 && <Typography color="text.secondary">{t('auth.outboxEmpty')}</Typography>}
            <Stack spacing={1.5} data-testid="outbox-list">
              {entries.map((entry) => (
                <OutboxItem key={entry.id} entry={entry} />
              ))}
            </Stack>
          </>
        )}
      </Stack>
    </Box>
  );
}
