import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

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
