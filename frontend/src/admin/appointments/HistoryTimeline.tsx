import { useEffect, useState } from 'react';
import { useRecordContext } from 'react-admin';
import DownloadIcon from '@mui/icons-material/Download';
import { Box, Button, List, ListItem, ListItemText, Typography } from '@mui/material';
import type { ApiRoutes } from '@telemed/contracts';
import { ROUTE_PATHS, fillPath } from '@telemed/contracts/route-paths';
import { send } from '../../lib/api';
import { call } from '../../lib/client';
import { useErrorText } from '../../i18n/errorText';
import { useFormat } from '../../i18n/format';
import { useT } from '../../i18n/useT';

type TimelineEntry = ApiRoutes['getAdminAppointmentHistory']['response']['events'][number];

/** '24 Nov 2026, 9:30 am' in India's time. */
const WHEN: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Asia/Kolkata' };

/** The appointment's history: every event with who, their role, when, its correlation id; downloadable as CSV. */
export function HistoryTimeline() {
  const record = useRecordContext();
  const [entries, setEntries] = useState<TimelineEntry[] | null>(null);
  const [failure, setFailure] = useState<{ error: unknown } | null>(null);
  const [downloadFailed, setDownloadFailed] = useState(false);
  const t = useT();
  const f = useFormat();
  const explain = useErrorText();
  const id = record?.id === undefined ? null : String(record.id);

  useEffect(() => {
    if (!id) return;
    let live = true;
    call('getAdminAppointmentHistory', { params: { id } })
      .then((history) => live && setEntries(history.events))
      .catch((error: unknown) => live && setFailure({ error }));
    return () => {
      live = false;
    };
  }, [id]);

  const download = async () => {
    if (!id) return;
    // A file, not JSON: the transport's body is the CSV's text as the server wrote it (the console's httpClient would
    // hand it back re-serialized as a JSON string).
    const exchange = await send(`${fillPath(ROUTE_PATHS.getAdminAppointmentHistory.path, { id })}?format=csv`, { headers: { Accept: 'text/csv' } });
    setDownloadFailed(!exchange.ok || typeof exchange.body !== 'string');
    if (!exchange.ok || typeof exchange.body !== 'string') return;
    const url = URL.createObjectURL(new Blob([exchange.body], { type: 'text/csv' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = `appointment-${id}-history.csv`;
    a.click();
    URL.revokeObjectURL(url);
  };

  return (
    <Box sx={{ mt: 2 }} data-testid="appointment-history">
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
        <Typography variant="h6">{t('admin.history')}</Typography>
        {/* MUI's Button, not react-admin's: that one drops its label on phones and this one has no other content. */}
        <Button size="small" startIcon={<DownloadIcon />} onClick={() => void download()}>
          {t('admin.downloadCsv')}
        </Button>
      </Box>
      {downloadFailed && <Typography color="error">{t('admin.historyDownloadFailed')}</Typography>}
      {failure && <Typography color="error">{explain(failure.error, 'admin.historyFailed')}</Typography>}
      {!entries && !failure && <Typography>{t('admin.loading')}</Typography>}
      {entries && (
        <List dense>
          {entries.map((e) => (
            <ListItem key={e.id} divider sx={{ alignItems: 'flex-start' }}>
              <ListItemText
                primary={e.description}
                secondary={t('admin.historyLine', {
                  when: f.date(e.occurred_at, WHEN),
                  who: e.actor.name ?? e.actor.user_id,
                  role: e.actor.role,
                  type: e.type,
                  correlation: e.correlation_id ?? '—',
                })}
                slotProps={{ secondary: { sx: { wordBreak: 'break-word' } } }}
              />
            </ListItem>
          ))}
        </List>
      )}
    </Box>
  );
}
