import { useState } from 'react';
import { Button, Datagrid, FunctionField, List, NumberField, SimpleList, TextField, TopToolbar, useNotify, useRecordContext, useRefresh } from 'react-admin';
import { Box, Chip, LinearProgress, Typography } from '@mui/material';
import AutorenewIcon from '@mui/icons-material/Autorenew';
import FingerprintIcon from '@mui/icons-material/Fingerprint';
import { httpClient } from '../providers';
import { ExportAllButton } from '../export';
import { joined, useNarrowScreen, wrappingListSx, RECORD_LIST } from '../responsive';

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
    >
      {/* On a phone react-admin's Button is its icon alone (the label its name): without one it showed nothing. */}
      <AutorenewIcon />
    </Button>
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
  const record = useRecordContext<ProjectionRow & { checksum: string | null }>();
  if (!record?.checksum) return null;
  return (
    <Typography component="span" title={record.checksum} sx={{ fontFamily: 'monospace', fontSize: 13 }}>
      {record.checksum.slice(0, 16)}…
    </Typography>
  );
}

/** The state in words, for a narrow screen's row. */
const stateLine = (p: ProjectionRow): string =>
  p.state === 'rebuilding' && p.progress
    ? `Rebuilding ${p.progress.percent}% (${p.progress.applied} events read)`
    : p.state === 'failed' && p.failure
      ? `Failed: ${p.failure.event.type} at ${p.failure.event.position} (${p.failure.event.stream}): ${p.failure.error}`
      : 'Live';

/** The list's actions, with the button that asks for the checksums once. */
function ProjectionActions({ onChecksums, computing }: { onChecksums: () => void; computing: boolean }) {
  return (
    <TopToolbar>
      <Button label={computing ? 'Checksums shown' : 'Compute checksums'} onClick={onChecksums} disabled={computing}>
        <FingerprintIcon />
      </Button>
      <ExportAllButton />
    </TopToolbar>
  );
}

export const ProjectionList = () => {
  // On a narrow screen: each projection a row with its state, lag and version, and Rebuild beside it; no table to scroll.
  const narrow = useNarrowScreen();
  // A checksum digests every document of a read model (a long history's worth): asked for by the operator, not by
  // every visit of the page or its refreshes.
  const [withChecksums, setWithChecksums] = useState(false);
  return (
    <List
      actions={<ProjectionActions onChecksums={() => setWithChecksums(true)} computing={withChecksums} />}
      pagination={false}
      sort={{ field: 'name', order: 'ASC' }}
      filter={withChecksums ? { checksum: true } : {}}
    >
      {narrow ? (
        <SimpleList<ProjectionRow & { lag: number; version: number; checksum?: string | null }>
          rowClick={false}
          className={RECORD_LIST}
          sx={wrappingListSx}
          primaryText={(p) => p.name}
          secondaryText={(p) => joined(stateLine(p), `lag ${p.lag} events`, `version ${p.version}`, p.checksum && `checksum ${p.checksum.slice(0, 16)}…`)}
          rightIcon={() => <RebuildButton />}
        />
      ) : (
        <Datagrid bulkActionButtons={false} rowClick={false}>
          {/* The server lists every projection in one fixed order: nothing to sort. */}
          <TextField source="name" sx={{ wordBreak: 'break-word' }} sortable={false} />
          <NumberField source="version" sortable={false} />
          <NumberField source="position" label="Checkpoint" sortable={false} />
          <NumberField source="lag" label="Lag (events)" sortable={false} />
          <NumberField source="events_per_second" label="Events/s" sortable={false} />
          <FunctionField label="State" render={() => <StateField />} />
          <FunctionField label="Checksum" render={() => <ChecksumField />} />
          <RebuildButton />
        </Datagrid>
      )}
    </List>
  );
};

export const projections = { list: ProjectionList };
