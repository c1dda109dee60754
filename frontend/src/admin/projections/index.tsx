import { createContext, useCallback, useContext, useMemo, useRef, useState } from 'react';
import { Button, Datagrid, FunctionField, List, NumberField, SimpleList, TextField, TopToolbar, useNotify, useRecordContext, useRefresh, type GetListResult } from 'react-admin';
import { Box, Chip, LinearProgress, Typography } from '@mui/material';
import AutorenewIcon from '@mui/icons-material/Autorenew';
import FingerprintIcon from '@mui/icons-material/Fingerprint';
import { call } from '../../lib/client';
import { ExportAllButton } from '../export';
import { joined, useNarrowScreen, wrappingListSx, RECORD_LIST } from '../responsive';
import { useErrorText } from '../../i18n/errorText';
import { useFormat } from '../../i18n/format';
import { useT, type Translate } from '../../i18n/useT';
import type { ApiRoutes } from '@telemed/contracts';

type ProjectionRow = ApiRoutes['listProjections']['response'][number];

/** How often the list is asked again while a rebuild runs (or was just asked for), so its progress moves. */
export const REBUILD_POLL_MS = 1000;

/**
 * The rebuilds the operator asked for on this page, followed to their end: `requested` until a list shows the
 * projection rebuilding (an answer in flight when the rebuild was asked can still say live), `seen` after.
 * A requested one still live in two answers was quicker than a poll: done too.
 */
type Followed = Map<string, { seen: boolean; liveAnswers: number }>;
interface RebuildFollow {
  followed: ReadonlyMap<string, { seen: boolean }>;
  follow: (name: string) => void;
}
const RebuildFollowContext = createContext<RebuildFollow>({ followed: new Map(), follow: () => {} });

const anyRebuilding = (rows: readonly ProjectionRow[] | undefined) => Boolean(rows?.some((r) => r.state === 'rebuilding'));

/**
 * Follows the rebuilds asked for here: the list polls while one is under way, and when it ends the operator is told
 * (live again, or failed).
 */
function useRebuildFollow() {
  const notify = useNotify();
  const t = useT();
  const [followed, setFollowed] = useState<Followed>(new Map());
  const current = useRef(followed);
  current.current = followed;
  const follow = useCallback((name: string) => setFollowed((f) => new Map(f).set(name, { seen: false, liveAnswers: 0 })), []);
  /** Each answer of the list: moves each followed rebuild on, and ends those that are over. */
  const onAnswer = useCallback(
    ({ data }: GetListResult<ProjectionRow>) => {
      if (current.current.size === 0) return;
      const next: Followed = new Map();
      for (const [name, f] of current.current) {
        const row = data.find((r) => r.name === name);
        if (!row) continue;
        if (row.state === 'failed')
          notify(
            row.failure
              ? t('admin.rebuildFailedAt', { name, type: row.failure.event.type, position: row.failure.event.position, error: row.failure.error })
              : t('admin.rebuildFailedSeeList', { name }),
            { type: 'error' },
          );
        else if (row.state === 'rebuilding') next.set(name, { seen: true, liveAnswers: 0 });
        else if (f.seen || f.liveAnswers + 1 >= 2) notify(t('admin.rebuiltLive', { name }), { type: 'success' });
        else next.set(name, { seen: false, liveAnswers: f.liveAnswers + 1 });
      }
      current.current = next;
      setFollowed(next);
    },
    // t is new each render; its words change only with its intl.
    [notify, t.intl],
  );
  const context = useMemo<RebuildFollow>(() => ({ followed, follow }), [followed, follow]);
  return { context, onAnswer, following: followed.size > 0 };
}

function RebuildButton() {
  const record = useRecordContext<ProjectionRow>();
  const notify = useNotify();
  const refresh = useRefresh();
  const { followed, follow } = useContext(RebuildFollowContext);
  const [asking, setAsking] = useState(false);
  const t = useT();
  const explain = useErrorText();
  if (!record) return null;
  const rebuild = async () => {
    setAsking(true);
    try {
      await call('rebuildProjection', { params: { name: record.id } });
      notify(t('admin.rebuildAsked', { name: record.name }));
      follow(record.name);
      refresh();
    } catch (error) {
      notify(explain(error, 'admin.rebuildFailed'), { type: 'error' });
    } finally {
      setAsking(false);
    }
  };
  return (
    <Button
      label={t('admin.rebuild')}
      disabled={asking || record.state === 'rebuilding' || followed.has(record.name)}
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
  const { followed } = useContext(RebuildFollowContext);
  const t = useT();
  if (!record) return null;
  if (record.state === 'live' && followed.get(record.name)?.seen === false) return <Chip size="small" color="info" label={t('admin.rebuildStarting')} />;
  if (record.state === 'rebuilding' && record.progress)
    return (
      <Box sx={{ minWidth: 160 }}>
        <Chip size="small" color="info" label={t('admin.rebuildingPercent', { percent: record.progress.percent })} />
        <LinearProgress variant="determinate" value={record.progress.percent} sx={{ mt: 0.5 }} aria-label={t('admin.rebuildProgress', { name: record.name })} />
        <Typography variant="caption">{t('admin.eventsRead', { applied: record.progress.applied })}</Typography>
      </Box>
    );
  if (record.state === 'failed' && record.failure)
    return (
      <Box sx={{ maxWidth: 320 }}>
        <Chip size="small" color="error" label={t('admin.failed')} />
        <Typography variant="caption" component="p" sx={{ wordBreak: 'break-word' }}>
          {t('admin.failureAt', { type: record.failure.event.type, position: record.failure.event.position, stream: record.failure.event.stream, error: record.failure.error })}
        </Typography>
      </Box>
    );
  return <Chip size="small" color="success" label={t('admin.live')} />;
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
const stateLine = (t: Translate, p: ProjectionRow): string =>
  p.state === 'rebuilding' && p.progress
    ? t('admin.rebuildingLine', { percent: p.progress.percent, applied: p.progress.applied })
    : p.state === 'failed' && p.failure
      ? t('admin.failedLine', { type: p.failure.event.type, position: p.failure.event.position, stream: p.failure.event.stream, error: p.failure.error })
      : t('admin.live');

/** The list's actions, with the button that asks for the checksums once. */
function ProjectionActions({ onChecksums, computing }: { onChecksums: () => void; computing: boolean }) {
  const t = useT();
  return (
    <TopToolbar>
      <Button label={t(computing ? 'admin.checksumsShown' : 'admin.computeChecksums')} onClick={onChecksums} disabled={computing}>
        <FingerprintIcon />
      </Button>
      <ExportAllButton />
    </TopToolbar>
  );
}

export const ProjectionList = () => {
  // On a narrow screen: each projection a row with its state, lag and version, and Rebuild beside it; no table to scroll.
  const narrow = useNarrowScreen();
  const t = useT();
  const f = useFormat();
  // A checksum digests every document of a read model (a long history's worth): asked for by the operator, not by
  // every visit of the page or its refreshes.
  const [withChecksums, setWithChecksums] = useState(false);
  const { context, onAnswer, following } = useRebuildFollow();
  return (
    <RebuildFollowContext.Provider value={context}>
      <List
        actions={<ProjectionActions onChecksums={() => setWithChecksums(true)} computing={withChecksums} />}
        pagination={false}
        sort={{ field: 'name', order: 'ASC' }}
        filter={withChecksums ? { checksum: true } : {}}
        // While a rebuild runs (or was just asked for) the list is asked again, so its progress moves to the end.
        queryOptions={{
          refetchInterval: (query) => (following || anyRebuilding(query.state.data?.data) ? REBUILD_POLL_MS : false),
          onSuccess: onAnswer,
        }}
      >
        {narrow ? (
          <SimpleList<ProjectionRow & { lag: number; version: number; checksum?: string | null }>
            rowClick={false}
            className={RECORD_LIST}
            sx={wrappingListSx}
            primaryText={(p) => p.name}
            secondaryText={(p) =>
              joined(
                stateLine(t, p),
                t('admin.lagLine', { lag: p.lag }),
                t('admin.versionLine', { version: p.version }),
                p.checksum && t('admin.checksumLine', { checksum: p.checksum.slice(0, 16) }),
              )
            }
            rightIcon={() => <RebuildButton />}
          />
        ) : (
          <Datagrid bulkActionButtons={false} rowClick={false}>
            {/* The server lists every projection in one fixed order: nothing to sort. */}
            <TextField source="name" sx={{ wordBreak: 'break-word' }} sortable={false} />
            <NumberField source="version" sortable={false} locales={f.locale} />
            <NumberField source="position" sortable={false} locales={f.locale} />
            <NumberField source="lag" sortable={false} locales={f.locale} />
            <NumberField source="events_per_second" sortable={false} locales={f.locale} />
            <FunctionField source="state" sortable={false} render={() => <StateField />} />
            <FunctionField source="checksum" sortable={false} render={() => <ChecksumField />} />
            <RebuildButton />
          </Datagrid>
        )}
      </List>
    </RebuildFollowContext.Provider>
  );
};

export const projections = { list: ProjectionList };
