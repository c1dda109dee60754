import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, CardContent, Chip, CircularProgress, List, ListItem, ListItemText, Stack, Typography } from '@mui/material';
import PrivacyTipOutlined from '@mui/icons-material/PrivacyTipOutlined';
import type { ConsentView } from '@telemed/contracts';
import { CONSENT_LANGUAGE_NAMES } from '@telemed/contracts/consent-notice';
import { ApiError } from '../../lib/api';
import { call } from '../../lib/client';
import { useConfirm } from '../../lib/confirm';
import { useToasts } from '../../lib/toasts';
import { consentsKey, useConsents } from '../patient/consent';

const dateOf = (iso: string) => new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });

/** A patient's consents to the privacy notice, each with Withdraw while it holds. */
export function ConsentsCard() {
  const consents = useConsents();
  const confirm = useConfirm();
  const toasts = useToasts();
  const queryClient = useQueryClient();
  const withdraw = useMutation({
    mutationFn: (version: string) => call('withdrawConsent', { params: { notice_version: version } }),
    onSuccess: async () => {
      toasts.show({ type: 'success', title: 'Consent withdrawn', message: 'You will be asked again before your next booking.' });
      await queryClient.invalidateQueries({ queryKey: consentsKey });
    },
    onError: (e) => toasts.show({ type: 'error', title: 'Could not withdraw', message: e instanceof ApiError ? e.detail : 'Please try again.' }),
  });

  async function ask(consent: ConsentView) {
    const yes = await confirm({
      title: 'Withdraw consent?',
      message:
        'You will not be able to request new appointments or upload reports until you agree to the privacy notice again. Requests your doctors have not answered yet are withdrawn, and your doctors stop reading your medical records (they keep the notes and prescriptions they wrote, as the law requires). Confirmed appointments stay booked.',
      confirmLabel: 'Withdraw',
      cancelLabel: 'Keep',
      destructive: true,
    });
    if (yes) withdraw.mutate(consent.notice_version);
  }

  return (
    <Card sx={{ maxWidth: 640, mx: 'auto', mt: 2 }} component="section" aria-labelledby="consents-title">
      <CardContent>
        <Stack spacing={1}>
          <Typography id="consents-title" variant="h6" component="h2" sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
            <PrivacyTipOutlined fontSize="small" aria-hidden /> Privacy consents
          </Typography>
          {consents.isLoading && <CircularProgress size={20} aria-label="Loading your consents" />}
          {consents.isError && <Alert severity="error">Your consents could not be loaded.</Alert>}
          {consents.data && consents.data.consents.length === 0 && (
            <Typography color="text.secondary">You have not agreed to the privacy notice yet. You will be asked before your first booking.</Typography>
          )}
          {consents.data && consents.data.consents.length > 0 && (
            <List dense disablePadding data-testid="consents-list">
              {consents.data.consents.map((c) => (
                <ListItem
                  key={c.notice_version}
                  disableGutters
                  secondaryAction={
                    c.status === 'active' ? (
                      <Button color="error" size="small" onClick={() => void ask(c)} disabled={withdraw.isPending} aria-label={`Withdraw consent to notice ${c.notice_version}`}>
                        Withdraw
                      </Button>
                    ) : undefined
                  }
                  sx={{ pr: c.status === 'active' ? 12 : 0 }}
                >
                  <ListItemText
                    primary={
                      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
                        <span>Privacy notice {c.notice_version}</span>
                        <Chip size="small" label={c.status === 'active' ? 'Agreed' : 'Withdrawn'} color={c.status === 'active' ? 'success' : 'default'} />
                      </Stack>
                    }
                    secondary={`${CONSENT_LANGUAGE_NAMES[c.language]} · agreed ${dateOf(c.given_at)}${c.withdrawn_at ? ` · withdrawn ${dateOf(c.withdrawn_at)}` : ''}`}
                  />
                </ListItem>
              ))}
            </List>
          )}
          {consents.data && !consents.data.has_current_consent && consents.data.consents.length > 0 && (
            <Typography color="text.secondary">You will be asked to agree again before your next booking.</Typography>
          )}
        </Stack>
      </CardContent>
    </Card>
  );
}
