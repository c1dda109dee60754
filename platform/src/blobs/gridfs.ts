import { GridFSBucket, MongoClient } from 'mongodb';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import { BLOB_ID, type RawBlobStore } from './port';

/**
 * Blobs in MongoDB GridFS (bucket `blobs`), through the official driver's GridFSBucket. A blob's GridFS id and
 * file name are its random blob id; a failed upload is aborted, which removes its chunks.
 */
export class GridFsBlobStore implements RawBlobStore {
  readonly kind = 'gridfs' as const;

  private constructor(
    private readonly client: MongoClient,
    private readonly bucket: GridFSBucket,
    private readonly ownsClient: boolean,
  ) {}

  static async connect(url: string, database: string, bucketName = 'blobs'): Promise<GridFsBlobStore> {
    const client = new MongoClient(url);
    await client.connect();
    return new GridFsBlobStore(client, new GridFSBucket(client.db(database), { bucketName }), true);
  }

  async write(id: string, source: Readable): Promise<number> {
    if (!BLOB_ID.test(id)) throw new Error('Invalid blob id');
    const upload = this.bucket.openUploadStreamWithId(id as never, id);
    let bytes = 0;
    const count = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        bytes += chunk.length;
        callback(null, chunk);
      },
    });
    try {
      await pipeline(source, count, upload);
      return bytes;
    } catch (error) {
      await upload.abort().catch(() => undefined);
      await this.bucket.delete(id as never).catch(() => undefined);
      throw error;
    }
  }

  async read(id: string): Promise<Readable | null> {
    if (!BLOB_ID.test(id)) return null;
    const found = await this.bucket.find({ _id: id as never }, { limit: 1 }).toArray();
    if (found.length === 0) return null;
    return this.bucket.openDownloadStream(id as never);
  }

  async delete(id: string): Promise<void> {
    if (!BLOB_ID.test(id)) return;
    await this.bucket.delete(id as never).catch(() => undefined);
  }

  async close(): Promise<void> {
    if (this.ownsClient) await this.client.close();
  }
}
