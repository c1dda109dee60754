import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { BLOB_ID, type RawBlobStore } from './port';

/**
 * Blobs as files under a directory (DATA_DIR/blobs): `<dir>/<first two hex digits>/<id>`. A write goes to a
 * temporary name under `<dir>/tmp` first, is flushed to disk, then renamed into place, so a crash never leaves a
 * partial blob under its id. Ids are random hex; no client-given name ever reaches a path.
 */
export class FileBlobStore implements RawBlobStore {
  readonly kind = 'files' as const;
  private ready: Promise<void> | null = null;

  /**
   * @param abandonedAfterMs how long a temporary file may go unwritten before it counts as left by a process that
   * died mid-upload: an upload under way writes at least once per upload idle timeout, or is cut off and removes its
   * own file, so twice that timeout can only be a crash's leftover (of this process's predecessor or of another
   * process sharing the directory).
   */
  constructor(
    readonly dir: string,
    private readonly abandonedAfterMs = 120_000,
  ) {}

  /**
   * Removes the temporary files of uploads that a crash (kill -9, power loss) cut off: a start calls it, then once
   * more when the leftovers of the moments before the crash have aged past `abandonedAfterMs`. Its cost follows the
   * uploads left under way, never the number of blobs.
   */
  async removeAbandonedUploads(now = Date.now()): Promise<number> {
    const tmp = join(this.dir, 'tmp');
    let names: string[];
    try {
      names = await readdir(tmp);
    } catch {
      return 0;
    }
    let removed = 0;
    for (const name of names) {
      if (!name.endsWith('.part')) continue;
      const path = join(tmp, name);
      const info = await stat(path).catch(() => null);
      if (!info || now - info.mtimeMs < this.abandonedAfterMs) continue;
      await rm(path, { force: true });
      removed += 1;
    }
    return removed;
  }

  private pathOf(id: string): string {
    if (!BLOB_ID.test(id)) throw new Error('Invalid blob id');
    return join(this.dir, id.slice(0, 2), id);
  }

  private init(): Promise<void> {
    this.ready ??= mkdir(join(this.dir, 'tmp'), { recursive: true }).then(() => undefined);
    return this.ready;
  }

  async write(id: string, source: Readable): Promise<number> {
    const target = this.pathOf(id);
    await this.init();
    const temp = join(this.dir, 'tmp', `${id}.${randomBytes(6).toString('hex')}.part`);
    let bytes = 0;
    const count = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        bytes += chunk.length;
        callback(null, chunk);
      },
    });
    try {
      await pipeline(source, count, createWriteStream(temp, { flags: 'wx', mode: 0o600 }));
      const handle = await open(temp, 'r');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
      await mkdir(join(this.dir, id.slice(0, 2)), { recursive: true });
      await rename(temp, target);
      return bytes;
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }

  async read(id: string): Promise<Readable | null> {
    if (!BLOB_ID.test(id)) return null;
    const path = this.pathOf(id);
    try {
      await stat(path);
    } catch {
      return null;
    }
    return createReadStream(path);
  }

  async delete(id: string): Promise<void> {
    if (!BLOB_ID.test(id)) return;
    await rm(this.pathOf(id), { force: true });
  }

  async close(): Promise<void> {}
}
