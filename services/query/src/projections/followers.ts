import type { EventStore, ReadStore } from '@telemed/platform';
import { ProjectionRunner } from '../projection-runner';
import type { Projection } from './projection';

/**
 * For processes that do not run the projections themselves: waits until every projection's stored checkpoint has
 * reached a position (polling the read store), up to a timeout. A checkpoint of another version is an old generation
 * frozen while its new one is built beside it (the projector's start after a version bump): it will not move, so it
 * holds nobody back.
 */
export function checkpointWaiter(readStore: ReadStore, projections: Projection[]) {
  return async (position: number, timeoutMs = 2000): Promise<boolean> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const checkpoints = await Promise.all(projections.map((p) => readStore.getCheckpoint(p.name)));
      if (checkpoints.every((c, i) => (c !== null && c.version !== projections[i]!.version) || (c?.position ?? 0) >= position)) return true;
      if (Date.now() > deadline) return false;
      await new Promise((r) => setTimeout(r, 50));
    }
  };
}

/**
 * A service that reads the read models but does not project them itself needs a projector somewhere. With the
 * in-memory read store there is none to share, so such a process follows the log on its own. MongoDB and the SQLite
 * file (in the shared DATA_DIR) are written by the query service with PROJECTOR=on and only read here.
 */
export async function followLogIfReadModelsAreLocal(
  adapters: { kinds: { readStore: 'sqlite' | 'memory' | 'mongodb' }; eventStore: EventStore; readStore: ReadStore },
  projections: Projection[],
): Promise<{ stop(): Promise<void> } | null> {
  if (adapters.kinds.readStore !== 'memory') return null;
  const runner = new ProjectionRunner({ eventStore: adapters.eventStore, readStore: adapters.readStore, projections });
  await runner.catchUp();
  await runner.start();
  return runner;
}
