import { useEffect, useState } from 'react';
import { useRecordContext } from 'react-admin';
import DownloadIcon from '@mui/icons-material/Download';
import { Box, Button, List, ListItem, ListItemText, Typography } from '@mui/material';
import type { ApiRoutes } from '@telemed/contracts';
import { ROUTE_PATHS, fillPath } from '@telemed/contracts/route-paths';
import { ApiError, send } from '../../lib/api';
import { call } from '../../lib/client';

type TimelineEntry = ApiRoutes['getAdminAppointmentHistory']['response']['events'][number];

const when = (iso: string) => new Date(iso).toLocaleString('en-IN', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Asia/Kolkata' });

/** The appointment's history: every event with who, their role, when, its correlation id; downloadable as CSV. */
export function HistoryTimeline() {
  const record = useRecordContext();
  const [entries, setEntries] = useState<TimelineEntry[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const id = record?.id === undefined ? null : String(record.id);

  useEffect(() => {
    if (!id) return;
    let live = true;
    call('getAdminAppointmentHistory', { params: { id } })
      .then((history) => live && setEntries(history.events))
      .catch((e: Error) => live && setError(e.message));
    return () => {
      live = false;
    };
  }, [id]);

  const download = async () => {
    if (!id) return;
    // A file, not JSON: the transport's body is the CSV's text as the server wrote it (the console's httpClient would
    // hand it back re-serialized as a JSON string).
    const exchange = await send(`${fillPath(ROUTE_PATHS.getAdminAppointmentHistory.path, { id })}?format=csv`, { headers: { Accept: 'text/csv' } });
    if (!exchange.ok || typeof exchange.body !== 'string') throw new ApiError(exchange.status, 'The history could not be downloaded');
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
        <Typography variant="h6">History</Typography>
        {/* MUI's Button, not react-admin's: that one drops its label on phones and this one has no other content. */}
        <Button size="small" startIcon={<DownloadIcon />} onClick={() => void download()}>
          Download CSV
        </Button>
      </Box>
      {error && <Typography color="error">{error}</Typography>}
      {!entries && !error && <Typography>Loading…</Typography>}
      {entries && (
        <List dense>
          {entries.map((e) => (
            <ListItem key={e.id} divider sx={{ alignItems: 'flex-start' }}>
              <ListItemText
                primary={e.description}
                secondary={`${when(e.occurred_at)} · ${e.actor.name ?? e.actor.user_id} (${e.actor.role}) · ${e.type} · correlation ${e.correlation_id ?? '—'}`}
                slotProps={{ secondary: { sx: { wordBreak: 'break-word' } } }}
              />
            </ListItem>
          ))}
        </List>
      )}
    </Box>
  );
}
