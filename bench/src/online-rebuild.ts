import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { GenerationalReadStore, SqliteReadStore } from '@telemed/platform';
import { ProjectionRunner, allProjections } from '@telemed/query';
import { buildHistoryLog } from './history-log';
import { rawReadRate } from './projection-rebuild';

export interface OnlineRebuildRun {
  projection: string;
  events_per_second: number;
  ceiling_events_per_second: number;
  seconds: number;
  peak_rss_mib: number;
  rss_before_mib: number;
  /** The longest event-loop stall during the rebuild, the switch-over included. */
  longest_stall_ms: number;
  /** After the switch-over: dropping the retired generation, a slice at a time. */
  retire_seconds: number;
  retire_longest_stall_ms: number;
  /** The slowest of the queries a client kept sending during the rebuild: what a reader waited at worst. */
  slowest_query_ms: number;
  queries: number;
  failed_or_empty_queries: number;
}

const mib = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

/**
 * An operator's rebuild as the console runs it (DESIGN.md §5): the read models built and followed live on the SQLite
 * read store, then `projection` rebuilt from position 0 into its next generation beside the live one while a client
 * keeps querying it, and switched over. Reported beside the log's raw read rate measured in the same run.
 */
export async function onlineRebuild(dir: string, events: number, runs: number, projection = 'appointments'): Promise<OnlineRebuildRun[]> {
  const logFile = join(dir, `online-${randomUUID()}.db`);
  const log = await buildHistoryLog(logFile, events);
  const store = log.store;
  const file = join(dir, `online-read-models-${randomUUID()}.db`);
  const readStore = new GenerationalReadStore(new SqliteReadStore({ filename: file }));
  const runner = new ProjectionRunner({ eventStore: store, readStore, projections: allProjections, retireAfterMs: 0 });
  await runner.catchUp();
  await runner.start();
  const target = allProjections.find((p) => p.name === projection)!;
  const collection = readStore.collection(target.collections[0]!);
  const results: OnlineRebuildRun[] = [];
  try {
    for (let i = 0; i < runs; i += 1) {
      const ceiling = rawReadRate(logFile);
      const expected = await collection.count({});
      const rssBefore = process.memoryUsage().rss;
      let peak = rssBefore;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 25);
      const delay = monitorEventLoopDelay({ resolution: 5 });
      delay.enable();
      const retiring = monitorEventLoopDelay({ resolution: 5 });
      let switchedAt = 0;
      let rebuilding = true;
      let queries = 0;
      let bad = 0;
      let slowest = 0;
      const reader = (async () => {
        while (rebuilding) {
          const started = performance.now();
          const found = await collection.find({}, { limit: 20 });
          const total = await collection.count({});
          slowest = Math.max(slowest, performance.now() - started);
          queries += 1;
          // The switch-over: from here the old generation is being dropped (the product waits a grace first).
          if (!switchedAt && runner.stateOf(projection).state !== 'rebuilding') {
            switchedAt = performance.now();
            delay.disable();
            retiring.enable();
          }
          if (found.length === 0 || total !== expected) bad += 1;
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      })();
      const started = performance.now();
      const { done } = await runner.rebuild(projection);
      await done;
      const ended = performance.now();
      rebuilding = false;
      await reader;
      delay.disable();
      retiring.disable();
      const seconds = ((switchedAt || ended) - started) / 1000;
      clearInterval(sampler);
      results.push({
        projection,
        events_per_second: Math.round(log.events / seconds),
        ceiling_events_per_second: Math.round(ceiling),
        seconds: Math.round(seconds * 100) / 100,
        peak_rss_mib: mib(peak),
        rss_before_mib: mib(rssBefore),
        longest_stall_ms: Math.round((delay.max / 1e6) * 10) / 10,
        retire_seconds: Math.round(((ended - (switchedAt || ended)) / 1000) * 100) / 100,
        retire_longest_stall_ms: switchedAt ? Math.round((retiring.max / 1e6) * 10) / 10 : 0,
        slowest_query_ms: Math.round(slowest * 10) / 10,
        queries,
        failed_or_empty_queries: bad,
      });
    }
  } finally {
    await runner.stop();
    await readStore.close();
    await store.close();
  }
  return results;
}
