import { useInfiniteQuery } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import type { ApiRoutes } from '@telemed/contracts';
import { call } from '../../lib/client';
import { useFormat } from '../../i18n/format';
import { useT, type MessageId, type Translate } from '../../i18n/useT';
import { useErrorText } from '../../i18n/errorText';
import { ClosableTitle } from '../../components/ClosableTitle';
import { DownloadButton } from '../records/RecordsTiles';

type Entry = ApiRoutes['listMyWalletEntries']['response'][number];

const PAGE = 20;

const REASONS: Record<NonNullable<Entry['reason']>, MessageId> = {
  consultation: 'wallet.reasonConsultation',
  patient_no_show: 'wallet.reasonPatientNoShow',
  late_cancellation: 'wallet.reasonLateCancellation',
  rejected: 'wallet.reasonRejected',
  cancelled: 'wallet.reasonCancelled',
  expired: 'wallet.reasonExpired',
  doctor_no_show: 'wallet.reasonDoctorNoShow',
  not_booked: 'wallet.reasonNotBooked',
  declined_times: 'wallet.reasonDeclinedTimes',
  adjustment: 'wallet.reasonAdjustment',
};

/** What one line of the statement says happened. */
function entryText(t: Translate, rupees: (amount: number) => string, entry: Entry): string {
  switch (entry.kind) {
    case 'opened':
      return t('wallet.entryOpened');
    case 'bought':
      return t('wallet.entryBought', { amount: rupees((entry.amount_paise ?? 0) / 100) });
    case 'held':
      return t('wallet.entryHeld');
    case 'charged':
      return t('wallet.entryCharged', { reason: t(REASONS[entry.reason ?? 'consultation']) });
    case 'returned':
      return t('wallet.entryReturned', { reason: t(REASONS[entry.reason ?? 'cancelled']) });
    case 'adjusted':
      return t('wallet.entryAdjusted');
    case 'refunded':
      return t('wallet.entryRefunded', { amount: rupees((entry.amount_paise ?? 0) / 100) });
  }
}

/** The patient's statement (issue 36): every change of their credits, newest first, a page at a time. */
export function StatementDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const t = useT();
  const f = useFormat();
  const errorText = useErrorText();
  const entries = useInfiniteQuery({
    queryKey: ['wallet', 'entries'],
    enabled: open,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => call('listMyWalletEntries', { query: { limit: PAGE, ...(pageParam ? { before: pageParam } : {}) } }),
    getNextPageParam: (last) => (last.length === PAGE ? last.at(-1)!.entry_id : undefined),
  });
  const lines = entries.data?.pages.flat() ?? [];
  return (
    <Dialog open={open} onClose={onClose} aria-labelledby="statement-title" fullWidth maxWidth="sm">
      <ClosableTitle id="statement-title" onClose={onClose}>
        {t('wallet.statement')}
      </ClosableTitle>
      <DialogContent>
        {entries.isLoading && <CircularProgress size={20} aria-label={t('wallet.loading')} />}
        {entries.isError && <Alert severity="error">{errorText(entries.error, 'wallet.loadFailed')}</Alert>}
        {entries.isSuccess && lines.length === 0 && <Typography color="text.secondary">{t('wallet.noEntries')}</Typography>}
        <List dense data-testid="statement">
          {lines.map((entry) => (
            <ListItem key={entry.entry_id} divider secondaryAction={<Typography sx={{ fontWeight: 600, color: entry.credits < 0 ? 'text.secondary' : 'success.main' }}>{entry.credits > 0 ? `+${f.count(entry.credits)}` : f.count(entry.credits)}</Typography>}>
              <ListItemText
                primary={entryText(t, f.rupees, entry)}
                secondary={f.date(entry.at, { dateStyle: 'medium', timeStyle: 'short' })}
                sx={{ pr: entry.kind === 'bought' ? 0 : 6 }}
              />
              {entry.kind === 'bought' && entry.payment_id && (
                <Box sx={{ mr: 8 }}>
                  <DownloadButton url={`/api/v1/wallet/me/receipts/${encodeURIComponent(entry.payment_id)}`} name={`receipt-${entry.payment_id}.pdf`} label={t('wallet.receipt')} />
                </Box>
              )}
            </ListItem>
          ))}
        </List>
        {entries.hasNextPage && (
          <Button onClick={() => void entries.fetchNextPage()} disabled={entries.isFetchingNextPage}>
            {t('wallet.moreEntries')}
          </Button>
        )}
      </DialogContent>
    </Dialog>
  );
}
