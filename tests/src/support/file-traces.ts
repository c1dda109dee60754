import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { runNpm } from './processes';

/** A SQLite file's bytes with its write-ahead log, as they sit on disk (the bytes tests of issue 12 search them). */
export function fileBytes(dir: string, name: string): Buffer {
  return Buffer.concat([name, `${name}-wal`].map((f) => join(dir, f)).filter(existsSync).map((f) => readFileSync(f)));
}

/** Where each value still appears, for a readable failure. */
export function traces(values: string[], places: Record<string, Buffer>): string[] {
  const found: string[] = [];
  for (const value of values) for (const [place, bytes] of Object.entries(places)) if (bytes.indexOf(value) !== -1) found.push(`"${value}" in ${place}`);
  return found;
}

/** The read models rebuilt from the log twice by the replay CLI (into the SQLite read store): each run's count and checksum. */
export async function replayedTwice(dataDir: string): Promise<Array<{ events: number; checksum: string }>> {
  const replays: Array<{ events: number; checksum: string }> = [];
  for (let run = 0; run < 2; run += 1) {
    const replay = await runNpm(['replay', '--', '--json'], { DATA_DIR: dataDir, READ_STORE: 'sqlite' });
    assert.equal(replay.code, 0, replay.stderr);
    replays.push(JSON.parse(replay.stdout.trim().split('\n').at(-1)!) as { events: number; checksum: string });
  }
  return replays;
}

/** Polls until `test` holds (messages on the bus arrive asynchronously). */
export async function until(test: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!test()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await sleep(20);
  }
}
