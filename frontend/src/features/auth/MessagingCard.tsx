import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Box, Button, Card, CardContent, CircularProgress, Divider, FormControlLabel, Stack, Switch, Typography } from '@mui/material';
import ForumOutlined from '@mui/icons-material/ForumOutlined';
import type { MessageChannel, MessageChannelChoice, MessagingPreferences } from '@telemed/contracts';
import { call } from '../../lib/client';
import { useToasts } from '../../lib/toasts';
import { browserZone } from '../../lib/time';
import { useErrorText } from '../../i18n/errorText';
import { useFormat } from '../../i18n/format';
import { useT, type MessageId } from '../../i18n/useT';
import { PhoneCodeForm } from './PhoneCodeForm';

/** Contracts' QUIET_HOURS (that module brings zod, so it is repeated here and tested): nothing but codes and imminent reminders then. */
export const QUIET_HOURS_SHOWN = { startHour: 21, endHour: 9 } as const;

export const messagingKey = ['users', 'me', 'messaging'] as const;

/** The channels as the screen lists them. */
const CHANNELS = ['email', 'sms', 'whatsapp'] as const satisfies readonly MessageChannel[];
const CHANNEL_NAMES: Record<MessageChannel, MessageId> = { email: 'account.channelEmail', sms: 'account.channelSms', whatsapp: 'account.channelWhatsapp' };

/** Why a channel cannot be chosen, if it cannot: the server does not send on it, or the account has no address for it. */
function unusable(channel: MessageChannel, prefs: MessagingPreferences): MessageId | null {
  if (!prefs.available.includes(channel)) return 'account.channelNotOffered';
  if (channel === 'email') return prefs.has_email ? null : 'account.channelNoEmail';
  return prefs.verified_phone ? null : 'account.channelNoPhone';
}

/** The account's mobile number: verified, or to add, proved by a code sent to it. */
function MobileNumber({ verified }: { verified: string | null }) {
  const t = useT();
  const toasts = useToasts();
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  return (
    <Stack spacing={1}>
      <Typography variant="subtitle2" component="h3">
        {t('account.mobileNumber')}
      </Typography>
      {!editing && (
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', rowGap: 1 }}>
          <Typography color={verified ? 'text.primary' : 'text.secondary'} sx={{ overflowWrap: 'anywhere' }} data-testid="verified-phone">
            {verified ? t('account.mobileVerified', { number: verified }) : t('account.mobileNone')}
          </Typography>
          <Button variant="outlined" onClick={() => setEditing(true)}>
            {verified ? t('account.changeMobile') : t('account.addMobile')}
          </Button>
        </Stack>
      )}
      {editing && (
        <PhoneCodeForm
          send={(phone_number) => call('startPhoneVerification', { body: { phone_number } })}
          verify={(phone_number, code, challenge) => call('verifyPhone', { body: { phone_number, code, challenge } })}
          onVerified={async () => {
            setEditing(false);
            toasts.show({ type: 'success', title: t('account.mobileVerifiedToast') });
            await queryClient.invalidateQueries({ queryKey: ['users', 'me'] });
          }}
          onCancel={() => setEditing(false)}
        />
      )}
    </Stack>
  );
}

/**
 * Messages outside the app (issue 34): the channels a person is reached on, each a switch saved at once, and the
 * mobile number SMS and WhatsApp go to.
 */
export function MessagingCard() {
  const t = useT();
  const f = useFormat();
  const explain = useErrorText();
  const toasts = useToasts();
  const queryClient = useQueryClient();
  const prefs = useQuery({ queryKey: messagingKey, queryFn: () => call('getMessagingPreferences') });
  const save = useMutation({
    mutationFn: (channels: MessageChannelChoice) => call('setMessagingPreferences', { body: { channels, time_zone: browserZone() } }),
    onSuccess: (answer) => {
      queryClient.setQueryData(messagingKey, answer);
      toasts.show({ type: 'success', title: t('account.messagesSaved') });
    },
    onError: (e) => toasts.show({ type: 'error', title: t('account.messagesNotSaved'), message: explain(e, 'account.tryAgain') }),
  });
  // The hours as the screens write a time of day ('9:00 pm'), in the viewer's zone: the server uses theirs.
  const hour = (h: number) => f.timeOfDay(new Date(2000, 0, 1, h));

  return (
    <Card sx={{ maxWidth: 640, mx: 'auto', mt: 2 }} component="section" aria-labelledby="messages-title">
      <CardContent>
        <Stack spacing={1.5}>
          <Typography id="messages-title" variant="h6" component="h2" sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
            <ForumOutlined fontSize="small" aria-hidden /> {t('account.messagesTitle')}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {t('account.messagesPrivacy', { start: hour(QUIET_HOURS_SHOWN.startHour), end: hour(QUIET_HOURS_SHOWN.endHour) })}
          </Typography>
          {prefs.isLoading && <CircularProgress size={20} aria-label={t('account.loadingMessages')} />}
          {prefs.isError && <Alert severity="error">{t('account.messagesNotLoaded')}</Alert>}
          {prefs.data && (
            <>
              <MobileNumber verified={prefs.data.verified_phone} />
              <Divider />
              <Stack spacing={1} data-testid="message-channels">
                {CHANNELS.map((channel) => {
                  const data = prefs.data;
                  const reason = unusable(channel, data);
                  // While a choice is saved it shows as chosen; a channel that cannot be used shows off.
                  const chosen = (save.isPending ? save.variables : data.channels)[channel];
                  return (
                    <Box key={channel}>
                      <FormControlLabel
                        control={
                          <Switch
                            checked={!reason && chosen}
                            disabled={!!reason || save.isPending}
                            onChange={(e) => save.mutate({ ...data.channels, [channel]: e.target.checked })}
                          />
                        }
                        label={t(CHANNEL_NAMES[channel])}
                      />
                      {reason && (
                        <Typography variant="body2" color="text.secondary" sx={{ ml: 6.5, mt: -0.5 }}>
                          {t(reason)}
                        </Typography>
                      )}
                    </Box>
                  );
                })}
              </Stack>
            </>
          )}
        </Stack>
      </CardContent>
    </Card>
  );
}
