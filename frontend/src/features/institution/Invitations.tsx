import { Link as RouterLink, useNavigate, useParams } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, CardContent, CircularProgress, Link, Stack, Typography } from '@mui/material';
import type { ApiRoutes } from '@telemed/contracts';
import { ApiError } from '../../lib/api';
import { call } from '../../lib/client';
import { useToasts } from '../../lib/toasts';
import { useT, type MessageId } from '../../i18n/useT';
import { useErrorText } from '../../i18n/errorText';

/** An invitation of the signed-in user to an institution's staff (GET /institutions/invitations). */
export type Invitation = ApiRoutes['getMyInvitation']['response'];

/**
 * The English of the invitation messages (the `institution` catalogue's; a test keeps the two equal), by which the
 * tests find them on the screen.
 */
export const INVITATION_TEXTS = {
  heading: 'Institution invitations',
  /** Add doctor, when the address belongs to an existing account: it joins once its owner accepts. */
  sent: 'Invitation sent. The doctor joins the institution after accepting it.',
  accepted: 'Invitation accepted',
  declined: 'Invitation declined',
  failed: 'Could not answer the invitation',
  notFound: 'This invitation does not exist or is not addressed to you.',
  answered: { accepted: 'You accepted this invitation.', declined: 'You declined this invitation.', revoked: 'The institution withdrew this invitation.' },
} as const;

/** What an answered invitation says, by its status. */
const ANSWERED: Record<Exclude<Invitation['status'], 'pending'>, MessageId> = {
  accepted: 'institution.answeredAccepted',
  declined: 'institution.answeredDeclined',
  revoked: 'institution.answeredRevoked',
};

/** Accept or decline; the institution then sees this account's appointments from now on (accept) or nothing (decline). */
function useAnswer() {
  const t = useT();
  const explain = useErrorText();
  const toasts = useToasts();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ invitation, answer }: { invitation: Invitation; answer: 'accept' | 'decline' }) =>
      call(answer === 'accept' ? 'acceptInvitation' : 'declineInvitation', { params: { id: invitation.institution.id, invitation_id: invitation.id } }),
    onSuccess: async (_result, { answer }) => {
      toasts.show({ type: 'success', title: t(answer === 'accept' ? 'institution.invitationAccepted' : 'institution.invitationDeclined') });
      await queryClient.invalidateQueries({ queryKey: ['invitations'] });
      await queryClient.invalidateQueries({ queryKey: ['institutions'] });
    },
    onError: (error) =>
      toasts.show({
        type: 'error',
        title: error instanceof ApiError ? t('institution.answerFailedDetail', { detail: explain(error, 'institution.unknownError') }) : t('institution.answerFailed'),
      }),
  });
}

function InvitationCard({ invitation }: { invitation: Invitation }) {
  const t = useT();
  const answer = useAnswer();
  return (
    <Card variant="outlined" data-testid="invitation">
      <CardContent>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ justifyContent: 'space-between', alignItems: { sm: 'center' } }}>
          <div>
            <Typography variant="subtitle1">
              <Link component={RouterLink} to={`/invitations/${invitation.id}`} underline="hover">
                {invitation.institution.name}
              </Link>
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {t('institution.inviteText', { role: invitation.role_title ?? t('institution.inviteRole', { role: invitation.account_type }) })}
            </Typography>
          </div>
          {invitation.status === 'pending' ? (
            <Stack direction="row" spacing={1}>
              <Button variant="contained" disabled={answer.isPending} onClick={() => answer.mutate({ invitation, answer: 'accept' })}>
                {t('institution.accept')}
              </Button>
              <Button color="inherit" disabled={answer.isPending} onClick={() => answer.mutate({ invitation, answer: 'decline' })}>
                {t('institution.decline')}
              </Button>
            </Stack>
          ) : (
            <Typography variant="body2">{t(ANSWERED[invitation.status])}</Typography>
          )}
        </Stack>
      </CardContent>
    </Card>
  );
}

/** The signed-in user's pending invitations; nothing at all when there are none. */
export function PendingInvitations() {
  const t = useT();
  const invitations = useQuery({ queryKey: ['invitations'], queryFn: () => call('listMyInvitations').catch(() => []) });
  if (!invitations.data?.length) return null;
  return (
    <Stack spacing={1} component="section" aria-label={t('institution.invitationsHeading')}>
      <Typography variant="h6" component="h2">
        {t('institution.invitationsHeading')}
      </Typography>
      {invitations.data.map((invitation) => (
        <InvitationCard key={invitation.id} invitation={invitation} />
      ))}
    </Stack>
  );
}

/** /invitations/:id, the link the invitation e-mail carries: the invitee answers it here. */
export function InvitationPage() {
  const t = useT();
  const explain = useErrorText();
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const invitation = useQuery({ queryKey: ['invitations', id], queryFn: () => call('getMyInvitation', { params: { invitation_id: id } }) });
  return (
    <Stack spacing={2}>
      <Typography variant="h5" component="h1">
        {t('institution.invitation')}
      </Typography>
      {invitation.isLoading && <CircularProgress />}
      {invitation.error && (
        <Alert severity="error">
          {invitation.error instanceof ApiError && invitation.error.status === 404 ? t('institution.invitationNotFound') : explain(invitation.error, 'institution.invitationLoadFailed')}
        </Alert>
      )}
      {invitation.data && <InvitationCard invitation={invitation.data} />}
      <div>
        <Button onClick={() => navigate('/')}>{t('institution.dashboard')}</Button>
      </div>
    </Stack>
  );
}
