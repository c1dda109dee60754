import { Button, Datagrid, FunctionField, List, NumberField, TextField, useNotify, useRecordContext, useRefresh } from 'react-admin';
import { Box, Chip, LinearProgress, Typography, useMediaQuery, type Theme } from '@mui/material';
import { httpClient } from '../providers';
import { ListActionsWithExport } from '../export';

interface ProjectionRow {
  id: string;
  name: string;
  state: 'live' | 'rebuilding' | 'failed';
  progress: { applied: number; position: number; head: number; percent: number } | null;
  failure: { event: { position: number; id: string; type: string; stream: string }; error: string } | null;
}

function RebuildButton() {
  const record = useRecordContext<ProjectionRow>();
  const notify = useNotify();
  const refresh = useRefresh();
  if (!record) return null;
  const rebuild = async () => {
    try {
      await httpClient(`/api/v1/admin/projections/${encodeURIComponent(record.id)}/rebuild`, { method: 'POST' });
      notify(`Rebuilding ${record.name} beside the live one; queries keep answering from it until the switch-over`);
      refresh();
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
    }
  };
  return (
    <Button
      label="Rebuild"
      disabled={record.state === 'rebuilding'}
      onClick={(e) => {
        e.stopPropagation();
        void rebuild();
      }}
    />
  );
}

/** Live; rebuilding with its progress; failed with the event it stopped on and the error. */
function StateField() {
  const record = useRecordContext<ProjectionRow>();
  if (!record) return null;
  if (record.state === 'rebuilding' && record.progress)
    return (
      <Box sx={{ minWidth: 160 }}>
        <Chip size="small" color="info" label={`Rebuilding ${record.progress.percent}%`} />
        <LinearProgress variant="determinate" value={record.progress.percent} sx={{ mt: 0.5 }} aria-label={`${record.name} rebuild progress`} />
        <Typography variant="caption">{record.progress.applied} events read</Typography>
      </Box>
    );
  if (record.state === 'failed' && record.failure)
    return (
      <Box sx={{ maxWidth: 320 }}>
        <Chip size="small" color="error" label="Failed" />
        <Typography variant="caption" component="p" sx={{ wordBreak: 'break-word' }}>
          {record.failure.event.type} at {record.failure.event.position} ({record.failure.event.stream}): {record.failure.error}
        </Typography>
      </Box>
    );
  return <Chip size="small" color="success" label="Live" />;
}

/** The checksum's first 16 hex digits (enough to compare by eye), the whole one on hover. */
function ChecksumField() {
  const record = useRecordContext<ProjectionRow & { checksum: string }>();
  if (!record) return null;
  return (
    <Typography component="span" title={record.checksum} sx={{ fontFamily: 'monospace', fontSize: 13 }}>
      {record.checksum.slice(0, 16)}…
    </Typography>
  );
}

export const ProjectionList = () => {
  // On a phone: name, lag, state and the button; the rest is for wider screens.
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  return (
    <List actions={<ListActionsWithExport />} pagination={false} sort={{ field: 'name', order: 'ASC' }}>
      <Datagrid bulkActionButtons={false} rowClick={false}>
        <TextField source="name" sx={{ wordBreak: 'break-word' }} />
        {!phone && <NumberField source="version" />}
        {!phone && <NumberField source="position" label="Checkpoint" />}
        <NumberField source="lag" label="Lag (events)" />
        {!phone && <NumberField source="events_per_second" label="Events/s" />}
        <FunctionField label="State" render={() => <StateField />} />
        {!phone && <FunctionField label="Checksum" render={() => <ChecksumField />} />}
        <RebuildButton />
      </Datagrid>
    </List>
  );
};

export const projections = { list: ProjectionList };
