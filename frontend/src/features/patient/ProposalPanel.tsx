import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Box, Button, Paper, Stack, Typography, alpha } from '@mui/material';
import EventRepeatOutlined from '@mui/icons-material/EventRepeatOutlined';
import { ApiError } from '../../lib/api';
import { call } from '../../lib/client';
import { useConfirm } from '../../lib/confirm';
import { useToasts } from '../../lib/toasts';
import { useErrorText } from '../../i18n/errorText';
import { useFormat } from '../../i18n/format';
import { useT } from '../../i18n/useT';
import type { Proposal, ProposedSlot } from './proposal';

/**
 * The other times a doctor offered (issue 35), on the patient's appointment: each with Accept, and Decline (asked
 * first: it cancels the appointment), with until when it can be answered. After an answer, or a refusal (the time was
 * taken meanwhile, the offer closed), the list is asked again.
 */
export function ProposalPanel({ appointmentId, doctorName, startAt, proposal }: { appointmentId: string; doctorName: string; startAt: string; proposal: Proposal }) {
  const t = useT();
  const f = useFormat();
  const confirm = useConfirm();
  const explain = useErrorText();
  const toasts = useToasts();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['appointments'] });
  const timeOf = (slot: ProposedSlot) => f.whenPhrase(slot.start_at);
  const failed = (fallback: 'patient.proposalAcceptFailed' | 'patient.proposalDeclineFailed') => (error: Error) => {
    const refused = error instanceof ApiError && error.status >= 400 && error.status < 500;
    toasts.show({ type: 'error', title: t(fallback), ...(refused ? { message: explain(error, fallback) } : {}), duration: 10_000 });
    return refresh();
  };
  const accept = useMutation({
    mutationFn: (slotId: number) => call('acceptProposedTime', { params: { id: appointmentId }, body: { slot_id: slotId } }),
    onSuccess: (result) => {
      toasts.show({ type: 'success', title: t('patient.proposalAcceptedTitle'), message: t('patient.proposalAcceptedText', { doctor: doctorName, when: f.whenPhrase(result.start) }), duration: 8000 });
      return refresh();
    },
    onError: failed('patient.proposalAcceptFailed'),
  });
  const decline = useMutation({
    mutationFn: () => call('declineProposedTimes', { params: { id: appointmentId } }),
    onSuccess: () => {
      toasts.show({ type: 'success', title: t('patient.proposalDeclinedTitle'), message: t('patient.proposalDeclinedText', { doctor: doctorName }), duration: 8000 });
      return refresh();
    },
    onError: failed('patient.proposalDeclineFailed'),
  });
  const busy = accept.isPending || decline.isPending;
  const askDecline = async () => {
    const ok = await confirm({
      title: t('patient.proposalDeclineQuestion'),
      message: t('patient.proposalDeclineConfirm', { doctor: doctorName, when: f.whenPhrase(startAt) }),
      confirmLabel: t('patient.proposalDeclineButton'),
      cancelLabel: t('patient.proposalKeepOffer'),
      destructive: true,
    });
    if (ok) decline.mutate();
  };
  const titleId = `proposal-title-${appointmentId}`;
  return (
    <Paper variant="outlined" component="section" aria-labelledby={titleId} data-testid="proposal-panel" sx={{ mt: 1.5, p: 2, borderColor: 'warning.main', bgcolor: (theme) => alpha(theme.palette.warning.main, 0.06) }}>
      <Stack spacing={1.5}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
          <EventRepeatOutlined color="warning" aria-hidden sx={{ mt: 0.25 }} />
          <Box sx={{ minWidth: 0 }}>
            <Typography id={titleId} variant="subtitle1" component="h4" sx={{ fontWeight: 700, overflowWrap: 'anywhere' }}>
              {t('patient.proposalTitle', { doctor: doctorName })}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {t('patient.proposalIntro')}
            </Typography>
            <Typography variant="body2" sx={{ fontWeight: 600 }} data-testid="proposal-answer-by">
              {t('patient.proposalAnswerBy', { when: f.whenPhrase(proposal.expires_at) })}
            </Typography>
          </Box>
        </Stack>
        <Stack component="ul" spacing={1} sx={{ listStyle: 'none', p: 0, m: 0 }}>
          {proposal.slots.map((slot) => {
            const when = timeOf(slot);
            return (
              <Stack
                component="li"
                key={slot.slot_id}
                direction="row"
                spacing={1}
                data-testid="proposed-time"
                data-slot-id={slot.slot_id}
                sx={{ alignItems: 'center', justifyContent: 'space-between', flexWrap: 'wrap', rowGap: 0.5, bgcolor: 'background.paper', borderRadius: 1, px: 1.5, py: 0.75 }}
              >
                <Typography sx={{ fontWeight: 600 }}>{when}</Typography>
                <Button variant="contained" size="small" disabled={busy} aria-label={t('patient.proposalAcceptTime', { when })} onClick={() => accept.mutate(slot.slot_id)}>
                  {t('patient.proposalAccept')}
                </Button>
              </Stack>
            );
          })}
        </Stack>
        <Box>
          <Button color="error" disabled={busy} onClick={() => void askDecline()}>
            {t('patient.proposalDecline')}
          </Button>
        </Box>
      </Stack>
    </Paper>
  );
}
