import { useState, type ReactNode } from 'react';
import { useInfiniteQuery, useMutation } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { Alert, Box, Button, Card, CardContent, Chip, CircularProgress, List, ListItem, ListItemText, Stack, Typography } from '@mui/material';
import DownloadOutlined from '@mui/icons-material/DownloadOutlined';
import VisibilityOutlined from '@mui/icons-material/VisibilityOutlined';
import DeleteForeverOutlined from '@mui/icons-material/DeleteForeverOutlined';
import type { AccessLogEntry } from '@telemed/contracts';
import { call } from '../../lib/client';
import { useConfirm } from '../../lib/confirm';
import { isDoctor, sessionStore, useSession } from '../../lib/session';
import { useToasts } from '../../lib/toasts';
import { englishText } from '../../lib/englishText';
import { useErrorText } from '../../i18n/errorText';
import { useFormat } from '../../i18n/format';
import { useT, type MessageId } from '../../i18n/useT';
import { accessedWhat, accessedWhy, keptText } from './privacyTexts';

type ErasureMessages = Readonly<Record<'unreadable' | 'closed' | 'kept' | 'final', MessageId>>;

/** What erasing does, in the order it happens: said on the card and, word for word, in the confirmation. */
const ERASURE_MESSAGES: ErasureMessages = {
  unreadable: 'account.erasurePatientUnreadable',
  closed: 'account.erasureClosed',
  kept: 'account.erasurePatientKept',
  final: 'account.erasureFinal',
};

/** The same for a doctor: what they issued stays with their patients' records, and what the log holds in clear stays. */
const DOCTOR_ERASURE_MESSAGES: ErasureMessages = {
  unreadable: 'account.erasureDoctorUnreadable',
  closed: ERASURE_MESSAGES.closed,
  kept: 'account.erasureDoctorKept',
  final: ERASURE_MESSAGES.final,
};

const englishSteps = (steps: ErasureMessages) => ({
  unreadable: englishText(steps.unreadable),
  closed: englishText(steps.closed),
  kept: englishText(steps.kept),
  final: englishText(steps.final),
});

/** The steps in English (what the tests read); the card says them in the chosen language. */
export const ERASURE_STEPS = englishSteps(ERASURE_MESSAGES);
export const ERASURE_CONFIRM_MESSAGE = [ERASURE_STEPS.unreadable, ERASURE_STEPS.closed, ERASURE_STEPS.kept, ERASURE_STEPS.final].join(' ');
export const DOCTOR_ERASURE_STEPS = englishSteps(DOCTOR_ERASURE_MESSAGES);

const INSTITUTION_ROLES: Record<string, MessageId> = {
  ADMIN: 'account.roleInstitutionAdmin',
  STAFF: 'account.roleInstitutionStaff',
  USER: 'account.roleInstitutionStaff',
  DOCTOR: 'account.roleDoctor',
  SUPER_DOCTOR: 'account.roleLeadDoctor',
};
const ACCOUNT_ROLES: Record<AccessLogEntry['who']['role'], MessageId> = { doctor: 'account.roleDoctor', admin: 'account.rolePlatformAdmin', patient: 'account.roleStaffMember' };

/** The reader's role: in the institution they read through, else their account's. */
export function roleLabelId(entry: AccessLogEntry): MessageId {
  const institutional = entry.who.institution_role ? INSTITUTION_ROLES[entry.who.institution_role] : undefined;
  return institutional ?? ACCOUNT_ROLES[entry.who.role];
}

const DAY: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'short', day: 'numeric' };
const DAY_AND_TIME: Intl.DateTimeFormatOptions = { ...DAY, hour: 'numeric', minute: '2-digit' };

function Section({ id, icon, title, children }: { id: string; icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <Card sx={{ maxWidth: 640, mx: 'auto', mt: 2 }} component="section" aria-labelledby={id}>
      <CardContent>
        <Stack spacing={1.5}>
          <Typography id={id} variant="h6" component="h2" sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
            {icon} {title}
          </Typography>
          {children}
        </Stack>
      </CardContent>
    </Card>
  );
}

/** Download my data: everything the product holds about me, as one JSON file (right to access). */
export function DownloadDataCard() {
  const t = useT();
  const explain = useErrorText();
  const toasts = useToasts();
  const download = useMutation({
    mutationFn: () => call('exportMyData'),
    onSuccess: (data) => {
      const blob = new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' });
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = `telemed-my-data-${data.exported_at.slice(0, 10)}.json`;
      document.body.appendChild(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
      toasts.show({ type: 'success', title: t('account.dataDownloading') });
    },
    onError: (e) => toasts.show({ type: 'error', title: t('account.couldNotPrepareData'), message: explain(e, 'account.tryAgain') }),
  });
  return (
    <Section id="export-title" icon={<DownloadOutlined fontSize="small" aria-hidden />} title={t('account.downloadMyData')}>
      <Typography color="text.secondary">{t('account.downloadExplained')}</Typography>
      <Box>
        <Button variant="outlined" startIcon={download.isPending ? <CircularProgress size={16} /> : <DownloadOutlined />} onClick={() => download.mutate()} disabled={download.isPending}>
          {download.isPending ? t('account.preparing') : t('account.downloadMyData')}
        </Button>
      </Box>
    </Section>
  );
}

export const ACCESS_LOG_PAGE = 10;

/** Accesses of one kind by one person on one day, newest first: a doctor's screen refreshing is one line, not ten. */
export interface AccessGroup {
  latest: AccessLogEntry;
  times: number;
  first: string;
}

export function groupAccesses(entries: AccessLogEntry[]): AccessGroup[] {
  const groups = new Map<string, AccessGroup>();
  for (const entry of entries) {
    const key = [entry.who.user_id, entry.what.resource, entry.why, entry.institution?.id ?? '', new Date(entry.when).toDateString()].join('|');
    const group = groups.get(key);
    if (group) {
      group.times += 1;
      group.first = entry.when;
    } else groups.set(key, { latest: entry, times: 1, first: entry.when });
  }
  return [...groups.values()];
}

/** Who saw my data: every read of it by someone else, newest first, a page at a time. */
export function AccessLogCard() {
  const t = useT();
  const f = useFormat();
  const day = (iso: string) => f.date(iso, DAY);
  const clock = (iso: string) => f.timeOfDay(new Date(iso));
  const log = useInfiniteQuery({
    queryKey: ['users', 'me', 'access-log'],
    queryFn: ({ pageParam }) => call('getMyAccessLog', { query: { limit: ACCESS_LOG_PAGE, cursor: pageParam || undefined } }),
    initialPageParam: '',
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
  const entries = log.data?.pages.flatMap((p) => p.entries) ?? [];
  const groups = groupAccesses(entries);
  return (
    <Section id="access-log-title" icon={<VisibilityOutlined fontSize="small" aria-hidden />} title={t('account.whoSawMyData')}>
      <Typography color="text.secondary">{t('account.whoSawExplained')}</Typography>
      {log.isLoading && <CircularProgress size={20} aria-label={t('account.loadingWhoSaw')} />}
      {log.isError && <Alert severity="error">{t('account.listNotLoaded')}</Alert>}
      {log.data && entries.length === 0 && <Typography>{t('account.nobodySawYet')}</Typography>}
      {entries.length > 0 && (
        <List dense disablePadding data-testid="access-log" aria-labelledby="access-log-title">
          {groups.map(({ latest: entry, times, first }) => (
            <ListItem key={entry.id} disableGutters divider alignItems="flex-start">
              <ListItemText
                primary={
                  <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
                    <Typography component="span" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
                      {entry.who.name ?? t('account.closedAccount')}
                    </Typography>
                    <Chip size="small" label={t(roleLabelId(entry))} />
                    {entry.institution?.name && (
                      <Typography component="span" variant="body2" color="text.secondary">
                        {t('account.atInstitution', { name: entry.institution.name })}
                      </Typography>
                    )}
                  </Stack>
                }
                secondary={
                  <>
                    <Box component="span" sx={{ display: 'block' }}>
                      {accessedWhat(t, entry)}
                    </Box>
                    <Box component="span" sx={{ display: 'block' }}>
                      {t('account.why', { reason: accessedWhy(t, entry) })}
                    </Box>
                    <Box component="span" sx={{ display: 'block' }}>
                      {times > 1 ? (
                        t.rich(clock(first) === clock(entry.when) ? 'account.timesOnDayAt' : 'account.timesOnDayBetween', {
                          times,
                          date: day(entry.when),
                          time: clock(entry.when),
                          from: clock(first),
                          to: clock(entry.when),
                          day: (chunks) => <time dateTime={entry.when}>{chunks}</time>,
                        })
                      ) : (
                        <time dateTime={entry.when}>{f.date(entry.when, DAY_AND_TIME)}</time>
                      )}
                    </Box>
                  </>
                }
              />
            </ListItem>
          ))}
        </List>
      )}
      {log.hasNextPage && (
        <Box>
          <Button onClick={() => void log.fetchNextPage()} disabled={log.isFetchingNextPage}>
            {log.isFetchingNextPage ? t('account.loading') : t('account.showOlder')}
          </Button>
        </Box>
      )}
    </Section>
  );
}

/** Erase my data: the request, behind a confirmation that says exactly what happens; then signed out. */
export function EraseDataCard() {
  const t = useT();
  const explain = useErrorText();
  const steps = isDoctor(useSession()?.user) ? DOCTOR_ERASURE_MESSAGES : ERASURE_MESSAGES;
  const confirm = useConfirm();
  const toasts = useToasts();
  const navigate = useNavigate();
  const [error, setError] = useState<string | null>(null);
  const erase = useMutation({
    mutationFn: () => call('eraseMe'),
    // The server ends the session as it erases (the socket may close before the answer arrives): what the app hears of
    // that is expected from the moment the request leaves, not an error to show ('Session expired', 'Authentication failed').
    onMutate: () => sessionStore.setClosedByUser(true),
    onSuccess: async (result) => {
      setError(null);
      const kept = result.kept.map((k) => t('account.keptItem', { ...keptText(t, k) })).join(' ');
      await confirm({
        title: t('account.dataErasedTitle'),
        message: kept ? t('account.dataErasedKept', { kept }) : t('account.dataErasedNothingKept'),
        acknowledgeOnly: true,
        confirmLabel: t('account.signOut'),
      });
      sessionStore.clear();
      navigate('/', { replace: true });
    },
    onError: (e) => {
      sessionStore.setClosedByUser(false);
      const detail = explain(e, 'account.tryAgain');
      setError(detail);
      toasts.show({ type: 'error', title: t('account.dataNotErased'), message: detail });
    },
  });

  async function ask() {
    const yes = await confirm({
      title: t('account.eraseAllQuestion'),
      message: [steps.unreadable, steps.closed, steps.kept, steps.final].map((step) => t(step)).join(' '),
      confirmLabel: t('account.eraseMyData'),
      cancelLabel: t('account.keepMyData'),
      destructive: true,
    });
    if (yes) erase.mutate();
  }

  return (
    <Section id="erase-title" icon={<DeleteForeverOutlined fontSize="small" aria-hidden />} title={t('account.eraseMyData')}>
      <Typography color="text.secondary">{t('account.whatErasingDoes')}</Typography>
      <Box component="ul" sx={{ m: 0, pl: 3, '& li': { mb: 0.5 } }}>
        <li>{t(steps.unreadable)}</li>
        <li>{t(steps.closed)}</li>
        <li>{t(steps.kept)}</li>
      </Box>
      {error && <Alert severity="error">{error}</Alert>}
      <Box>
        <Button color="error" variant="outlined" startIcon={<DeleteForeverOutlined />} onClick={() => void ask()} disabled={erase.isPending}>
          {erase.isPending ? t('account.erasing') : t('account.eraseMyData')}
        </Button>
      </Box>
    </Section>
  );
}

/** The privacy sections of /profile, after the consents. */
export function PrivacySections() {
  return (
    <>
      <DownloadDataCard />
      <AccessLogCard />
      <EraseDataCard />
    </>
  );
}
