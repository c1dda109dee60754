import { conflict, notFound, z } from '@telemed/contracts';
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
  // The error's class and code only: a failure's message can quote the event's data (a name, a reason for a visit);
  // the log keeps it, scrubbed, for whoever reads the server's logs.
  const failureSchema = z.object({
    event: z.object({ position: z.number(), id: z.string(), type: z.string(), stream: z.string() }),
    error: z.string().openapi({ description: "The error's class and code (`TypeError`, `SqliteError (SQLITE_FULL)`), never its message: see the server's log" }),
  });
  api.route({
    method: 'get',
    path: '/admin/projections',
    summary:
      'Projections: version, checkpoint, lag behind the log in events, events per second, state, and with `checksum=true` (or the console\'s filter `{"checksum":true}`) the checksum (operators)',
    tags: ['operations'],
    policy: policies.roles('admin'),
    query: z.object({
      checksum: z.enum(['true', 'false']).optional().openapi({ description: 'Digest every document of each projection (reads the whole read model: ask only when comparing)' }),
      filter: z.string().max(200).optional().openapi({ description: 'react-admin\'s filter: `{"checksum":true}` as checksum=true' }),
    }),
    response: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        version: z.number(),
        position: z.number(),
        lag: z.number(),
        events_per_second: z.number(),
        state: z.enum(['live', 'rebuilding', 'failed']),
        progress: z.object({ applied: z.number(), position: z.number(), head: z.number(), percent: z.number() }).nullable(),
        failure: failureSchema.nullable(),
        checksum: z.string().nullable(),
      }),
    ),
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

  api.route({
    method: 'post',
    path: '/admin/projections/:name/rebuild',
    summary: 'Rebuild one projection from the start of the log beside the live one, switching over when caught up (operators); follow it in the list',
    tags: ['operations'],
    policy: policies.roles('admin'),
    params: z.object({ name: z.string().min(1).max(64) }),
    response: z.object({ status: z.literal('rebuilding'), name: z.string() }),
    successStatus: 202,
    errors: [404, 409],
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
