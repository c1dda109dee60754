import { Readable } from 'node:stream';
import type { RawBlobStore } from './port';

/** Blobs in memory: for unit tests of the encryption only (the product never keeps files in memory). */
export class MemoryBlobStore implements RawBlobStore {
  readonly kind = 'memory' as const;
  readonly blobs = new Map<string, Buffer>();

  async write(id: string, source: Readable): Promise<number> {
    const chunks: Buffer[] = [];
    for await (const chunk of source) chunks.push(chunk as Buffer);
    const bytes = Buffer.concat(chunks);
    this.blobs.set(id, bytes);
    return bytes.length;
  }

  async read(id: string): Promise<Readable | null> {
    const bytes = this.blobs.get(id);
    return bytes ? Readable.from([bytes]) : null;
  }

  async delete(id: string): Promise<void> {
    this.blobs.delete(id);
  }

  async close(): Promise<void> {}
}
