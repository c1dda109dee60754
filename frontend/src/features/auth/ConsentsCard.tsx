import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, CardContent, Chip, CircularProgress, List, ListItem, ListItemText, Stack, Typography } from '@mui/material';
import PrivacyTipOutlined from '@mui/icons-material/PrivacyTipOutlined';
import type { ConsentView } from '@telemed/contracts';
import { CONSENT_LANGUAGE_NAMES } from '@telemed/contracts/consent-notice';
import { call } from '../../lib/client';
import { useConfirm } from '../../lib/confirm';
import { useToasts } from '../../lib/toasts';
import { consentsKey, useConsents } from '../patient/consent';
import { useErrorText } from '../../i18n/errorText';
import { useFormat } from '../../i18n/format';
import { useT } from '../../i18n/useT';

const DAY: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'short', day: 'numeric' };

/** A patient's consents to the privacy notice, each with Withdraw while it holds. */
export function ConsentsCard() {
  const t = useT();
  const f = useFormat();
  const explain = useErrorText();
  const consents = useConsents();
  const confirm = useConfirm();
  const toasts = useToasts();
  const queryClient = useQueryClient();
  const withdraw = useMutation({
    mutationFn: (version: string) => call('withdrawConsent', { params: { notice_version: version } }),
    onSuccess: async () => {
      toasts.show({ type: 'success', title: t('account.consentWithdrawn'), message: t('account.askedAgainNextBooking') });
      await queryClient.invalidateQueries({ queryKey: consentsKey });
    },
    onError: (e) => toasts.show({ type: 'error', title: t('account.couldNotWithdraw'), message: explain(e, 'account.tryAgain') }),
  });

  async function ask(consent: ConsentView) {
    const yes = await confirm({
      title: t('account.withdrawConsentQuestion'),
      message: t('account.withdrawConsentMessage'),
      confirmLabel: t('account.withdraw'),
      cancelLabel: t('account.keep'),
      destructive: true,
    });
    if (yes) withdraw.mutate(consent.notice_version);
  }

  return (
    <Card sx={{ maxWidth: 640, mx: 'auto', mt: 2 }} component="section" aria-labelledby="consents-title">
      <CardContent>
        <Stack spacing={1}>
          <Typography id="consents-title" variant="h6" component="h2" sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
            <PrivacyTipOutlined fontSize="small" aria-hidden /> {t('account.privacyConsents')}
          </Typography>
          {consents.isLoading && <CircularProgress size={20} aria-label={t('account.loadingConsents')} />}
          {consents.isError && <Alert severity="error">{t('account.consentsNotLoaded')}</Alert>}
          {consents.data && consents.data.consents.length === 0 && (
            <Typography color="text.secondary">{t('account.noConsentYet')}</Typography>
          )}
          {consents.data && consents.data.consents.length > 0 && (
            <List dense disablePadding data-testid="consents-list">
              {consents.data.consents.map((c) => (
                <ListItem
                  key={c.notice_version}
                  disableGutters
                  secondaryAction={
                    c.status === 'active' ? (
                      <Button color="error" size="small" onClick={() => void ask(c)} disabled={withdraw.isPending} aria-label={t('account.withdrawConsentTo', { version: c.notice_version })}>
                        {t('account.withdraw')}
                      </Button>
                    ) : undefined
                  }
                  sx={{ pr: c.status === 'active' ? 12 : 0 }}
                >
                  <ListItemText
                    primary={
                      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
                        <span>{t('account.privacyNoticeVersion', { version: c.notice_version })}</span>
                        <Chip size="small" label={t(c.status === 'active' ? 'account.agreed' : 'account.withdrawn')} color={c.status === 'active' ? 'success' : 'default'} />
                      </Stack>
                    }
                    secondary={
                      c.withdrawn_at
                        ? t('account.consentAgreedAndWithdrawn', { language: CONSENT_LANGUAGE_NAMES[c.language], given: f.date(c.given_at, DAY), withdrawn: f.date(c.withdrawn_at, DAY) })
                        : t('account.consentAgreedOn', { language: CONSENT_LANGUAGE_NAMES[c.language], given: f.date(c.given_at, DAY) })
                    }
                  />
                </ListItem>
              ))}
            </List>
          )}
          {consents.data && !consents.data.has_current_consent && consents.data.consents.length > 0 && (
            <Typography color="text.secondary">{t('account.askedToAgreeAgain')}</Typography>
          )}
        </Stack>
      </CardContent>
    </Card>
  );
}
