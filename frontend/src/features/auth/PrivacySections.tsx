import { useState, type ReactNode } from 'react';
import { useInfiniteQuery, useMutation } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { Alert, Box, Button, Card, CardContent, Chip, CircularProgress, List, ListItem, ListItemText, Stack, Typography } from '@mui/material';
import DownloadOutlined from '@mui/icons-material/DownloadOutlined';
import VisibilityOutlined from '@mui/icons-material/VisibilityOutlined';
import DeleteForeverOutlined from '@mui/icons-material/DeleteForeverOutlined';
import type { AccessLogEntry } from '@telemed/contracts';
import { ApiError } from '../../lib/api';
import { call } from '../../lib/client';
import { useConfirm } from '../../lib/confirm';
import { isDoctor, sessionStore, useSession } from '../../lib/session';
import { useToasts } from '../../lib/toasts';

/** What erasing does, in the order it happens: said on the card and, word for word, in the confirmation. */
export const ERASURE_STEPS = {
  unreadable:
    'Your name, e-mail address, phone number, the reasons you gave for your visits, the medical reports you uploaded, your consultation chat and every other personal detail are made unreadable everywhere, for good: the key they are encrypted with is destroyed, so nobody (not us, not a doctor or clinic) can read them again.',
  closed: 'Your account is closed and you are signed out.',
  kept:
    'Kept under legal hold: the consultation notes, prescriptions and prescription files your doctors wrote, under a key of their own, readable only by your doctors and their clinics for three years and then destroyed (Indian Medical Council Regulations 2002); without your personal details, the facts of your appointments (date and time, doctor, status, fee), because doctors must keep teleconsultation records for three years (Telemedicine Practice Guidelines 2020); your consent records, as proof of consent (Digital Personal Data Protection Act 2023); and the record of this erasure.',
  final: 'This cannot be undone. Download your data first if you want a copy.',
} as const;

export const ERASURE_CONFIRM_MESSAGE = [ERASURE_STEPS.unreadable, ERASURE_STEPS.closed, ERASURE_STEPS.kept, ERASURE_STEPS.final].join(' ');

/** The same for a doctor: what they issued stays with their patients' records, and what the log holds in clear stays. */
export const DOCTOR_ERASURE_STEPS = {
  unreadable:
    'Your name, e-mail address, phone number, the text of your blog posts and every other personal detail are made unreadable everywhere, for good: the key they are encrypted with is destroyed, so nobody (not us, not a clinic) can read them again.',
  closed: ERASURE_STEPS.closed,
  kept:
    "Kept under legal hold: the prescriptions and consultation notes you issued, with your qualification, registration number and medical council as printed on the prescriptions (your name goes), as part of your patients' clinical records (Telemedicine Practice Guidelines 2020); without your personal details, the facts of the appointments you gave (date and time, status, fee). Kept because they carry no name on their own: your specialty, qualification, city and consultation fee, your published schedule, and of your blog posts their category, dates and cover-picture link, and the digests of the pictures you uploaded. Also your consent records, if any, and the record of this erasure.",
  final: ERASURE_STEPS.final,
} as const;

const INSTITUTION_ROLES: Record<string, string> = {
  ADMIN: 'Institution administrator',
  STAFF: 'Institution staff',
  USER: 'Institution staff',
  DOCTOR: 'Doctor',
  SUPER_DOCTOR: 'Lead doctor',
};
const ACCOUNT_ROLES: Record<AccessLogEntry['who']['role'], string> = { doctor: 'Doctor', admin: 'Platform administrator', patient: 'Staff member' };

export function roleLabel(entry: AccessLogEntry): string {
  return (entry.who.institution_role && INSTITUTION_ROLES[entry.who.institution_role]) ?? ACCOUNT_ROLES[entry.who.role];
}

const day = (iso: string) => new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
const clock = (iso: string) => new Date(iso).toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit' });
const dateTime = (iso: string) => new Date(iso).toLocaleString(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });

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
      toasts.show({ type: 'success', title: 'Your data is downloading' });
    },
    onError: (e) => toasts.show({ type: 'error', title: 'Could not prepare your data', message: e instanceof ApiError ? e.detail : 'Please try again.' }),
  });
  return (
    <Section id="export-title" icon={<DownloadOutlined fontSize="small" aria-hidden />} title="Download my data">
      <Typography color="text.secondary">
        One file with everything we hold about you: your profile, consents, appointments with their history, the slots you booked, your institutions and
        invitations, and who saw each item.
      </Typography>
      <Box>
        <Button variant="outlined" startIcon={download.isPending ? <CircularProgress size={16} /> : <DownloadOutlined />} onClick={() => download.mutate()} disabled={download.isPending}>
          {download.isPending ? 'Preparing...' : 'Download my data'}
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
  const log = useInfiniteQuery({
    queryKey: ['users', 'me', 'access-log'],
    queryFn: ({ pageParam }) => call('getMyAccessLog', { query: { limit: ACCESS_LOG_PAGE, cursor: pageParam || undefined } }),
    initialPageParam: '',
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
  const entries = log.data?.pages.flatMap((p) => p.entries) ?? [];
  const groups = groupAccesses(entries);
  return (
    <Section id="access-log-title" icon={<VisibilityOutlined fontSize="small" aria-hidden />} title="Who saw my data">
      <Typography color="text.secondary">Every time a doctor, a clinic&apos;s staff or an operator opened your details, with why.</Typography>
      {log.isLoading && <CircularProgress size={20} aria-label="Loading who saw your data" />}
      {log.isError && <Alert severity="error">The list could not be loaded.</Alert>}
      {log.data && entries.length === 0 && <Typography>Nobody else has seen your data yet.</Typography>}
      {entries.length > 0 && (
        <List dense disablePadding data-testid="access-log" aria-labelledby="access-log-title">
          {groups.map(({ latest: entry, times, first }) => (
            <ListItem key={entry.id} disableGutters divider alignItems="flex-start">
              <ListItemText
                primary={
                  <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
                    <Typography component="span" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
                      {entry.who.name ?? 'A closed account'}
                    </Typography>
                    <Chip size="small" label={roleLabel(entry)} />
                    {entry.institution?.name && (
                      <Typography component="span" variant="body2" color="text.secondary">
                        at {entry.institution.name}
                      </Typography>
                    )}
                  </Stack>
                }
                secondary={
                  <>
                    <Box component="span" sx={{ display: 'block' }}>
                      {entry.what.description}
                    </Box>
                    <Box component="span" sx={{ display: 'block' }}>
                      Why: {entry.why_label}
                    </Box>
                    <Box component="span" sx={{ display: 'block' }}>
                      {times > 1 ? (
                        <>
                          {times} times on <time dateTime={entry.when}>{day(entry.when)}</time>,{' '}
                          {clock(first) === clock(entry.when) ? `at ${clock(entry.when)}` : `${clock(first)} – ${clock(entry.when)}`}
                        </>
                      ) : (
                        <time dateTime={entry.when}>{dateTime(entry.when)}</time>
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
            {log.isFetchingNextPage ? 'Loading...' : 'Show older'}
          </Button>
        </Box>
      )}
    </Section>
  );
}

/** Erase my data: the request, behind a confirmation that says exactly what happens; then signed out. */
export function EraseDataCard() {
  const steps = isDoctor(useSession()?.user) ? DOCTOR_ERASURE_STEPS : ERASURE_STEPS;
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
      const kept = result.kept.map((k) => `${k.what}: ${k.why}.`).join(' ');
      await confirm({
        title: 'Your data was erased',
        message: `Your personal details can no longer be read and your account is closed. ${kept ? `Kept under legal hold: ${kept}` : 'Nothing was kept.'}`,
        acknowledgeOnly: true,
        confirmLabel: 'Sign out',
      });
      sessionStore.clear();
      navigate('/', { replace: true });
    },
    onError: (e) => {
      sessionStore.setClosedByUser(false);
      const detail = e instanceof ApiError ? e.detail : 'Please try again.';
      setError(detail);
      toasts.show({ type: 'error', title: 'Your data was not erased', message: detail });
    },
  });

  async function ask() {
    const yes = await confirm({
      title: 'Erase all your data?',
      message: [steps.unreadable, steps.closed, steps.kept, steps.final].join(' '),
      confirmLabel: 'Erase my data',
      cancelLabel: 'Keep my data',
      destructive: true,
    });
    if (yes) erase.mutate();
  }

  return (
    <Section id="erase-title" icon={<DeleteForeverOutlined fontSize="small" aria-hidden />} title="Erase my data">
      <Typography color="text.secondary">What happens when you erase your data:</Typography>
      <Box component="ul" sx={{ m: 0, pl: 3, '& li': { mb: 0.5 } }}>
        <li>{steps.unreadable}</li>
        <li>{steps.closed}</li>
        <li>{steps.kept}</li>
      </Box>
      {error && <Alert severity="error">{error}</Alert>}
      <Box>
        <Button color="error" variant="outlined" startIcon={<DeleteForeverOutlined />} onClick={() => void ask()} disabled={erase.isPending}>
          {erase.isPending ? 'Erasing...' : 'Erase my data'}
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
