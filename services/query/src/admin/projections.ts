import { conflict, notFound } from '@telemed/contracts';
import { policies, type ApiRouter, type ReadStore } from '@telemed/platform';
import type { Projection } from '../projections';
import { RebuildUnderWay, projectionChecksum, type ProjectionRunner } from '../projection-runner';

/** What the console's projections resource reads and drives. */
export interface ProjectionConsoleDeps {
  projections: Projection[];
  runner: ProjectionRunner;
  /** The read models as stored (sealed fields sealed): what the checksums digest. */
  storedReadStore: ReadStore;
  /** False in a replica that reads the read models another process projects: it rebuilds nothing. */
  runsProjections: boolean;
}

/** Whether react-admin's `filter` JSON asks for checksums (`{"checksum":true}`); anything else is no. */
function consoleAsksChecksums(filter: string | undefined): boolean {
  if (!filter) return false;
  try {
    return (JSON.parse(filter) as { checksum?: unknown } | null)?.checksum === true;
  } catch {
    return false;
  }
}

/** Projections with their lag and state, and a rebuild (operators). */
export function projectionRoutes(api: ApiRouter, deps: ProjectionConsoleDeps): void {
  const { projections, runner } = deps;
  api.implement('listProjections', {
    policy: policies.roles('admin'),
    handler: async ({ res, query }) => {
      // A checksum reads and digests every document of the read models, a cost that grows with the whole history: only
      // when asked (comparing a rebuild with the live one), never for the lists polled while a rebuild runs.
      const withChecksums = query.checksum === 'true' || consoleAsksChecksums(query.filter);
      const rows = await Promise.all(
        projections.map(async (p) => {
          const state = runner.stateOf(p.name);
          return {
            id: p.name,
            name: p.name,
            version: p.version,
            position: runner.checkpointOf(p.name),
            lag: await runner.lagOf(p.name),
            events_per_second: runner.eventsPerSecond(p.name),
            state: state.state,
            progress: state.state === 'rebuilding' ? { applied: state.applied, position: state.position, head: state.head, percent: Math.round(state.progress * 100) } : null,
            failure: state.state === 'failed' ? { event: state.event, error: state.kind } : null,
            checksum: withChecksums ? await projectionChecksum(deps.storedReadStore, p) : null,
          };
        }),
      );
      res.set('Content-Range', `projections 0-${Math.max(0, rows.length - 1)}/${rows.length}`);
      return { body: rows };
    },
  });

  api.implement('rebuildProjection', {
    policy: policies.roles('admin'),
    handler: async ({ params }) => {
      if (!projections.some((p) => p.name === params.name)) throw notFound('Projection not found');
      if (!deps.runsProjections) throw conflict('This replica does not run the projections');
      try {
        await runner.rebuild(params.name);
      } catch (error) {
        if (error instanceof RebuildUnderWay) throw conflict(error.message);
        throw error;
      }
      return { body: { status: 'rebuilding' as const, name: params.name } };
    },
  });
}
