import { join } from 'node:path';
import type { Config } from '../config';
import type { KeyRing } from '../keystore/key-ring';
import { EncryptingBlobStore } from './encrypting';
import { FileBlobStore } from './files';
import type { RawBlobStore } from './port';

/** The raw store BLOB_STORE asks for: files under DATA_DIR/blobs, or GridFS in MONGODB_URL's database. */
export async function rawBlobStoreFromConfig(config: Config): Promise<RawBlobStore> {
  if (config.blobStoreKind === 'gridfs') return (await import('./gridfs')).GridFsBlobStore.connect(config.MONGODB_URL!, config.MONGODB_DATABASE);
  const files = new FileBlobStore(join(config.dataDir, 'blobs'), 2 * config.HTTP_UPLOAD_IDLE_TIMEOUT_MS);
  await files.removeAbandonedUploads();
  // The files a crash left in its last moments are still too fresh to tell from another process's upload: look again
  // once they have aged.
  setTimeout(() => void files.removeAbandonedUploads().catch(() => undefined), 2 * config.HTTP_UPLOAD_IDLE_TIMEOUT_MS + 1_000).unref();
  return files;
}

/** The product's blob store: every blob encrypted under its owner's data key from the key ring. */
export async function blobStoreFromConfig(config: Config, keys: KeyRing): Promise<EncryptingBlobStore> {
  return new EncryptingBlobStore(await rawBlobStoreFromConfig(config), keys);
}
