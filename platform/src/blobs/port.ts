import type { Readable } from 'node:stream';

/**
 * BlobStore: files as streams, never whole in memory. The raw port stores bytes under ids the product makes (random,
 * never a client's file name); the product uses it through EncryptingBlobStore, which encrypts each blob under its
 * owner's data key, so a person's erasure makes their files unreadable wherever the bytes were copied.
 */
export interface RawBlobStore {
  readonly kind: 'files' | 'gridfs' | 'memory';
  /** Stores the stream's bytes under `id` (all or nothing: a failed write leaves nothing under the id); returns the bytes written. */
  write(id: string, source: Readable): Promise<number>;
  /** The bytes stored under `id`, or null when there are none. */
  read(id: string): Promise<Readable | null>;
  delete(id: string): Promise<void>;
  close(): Promise<void>;
}

export interface StoredBlob {
  blob_id: string;
  /** Plain bytes (before encryption). */
  size: number;
  /** SHA-256 of the plain bytes, hex. */
  sha256: string;
}

export interface BlobStore {
  readonly kind: RawBlobStore['kind'];
  /** Encrypts the stream under the subject's data key while storing it. */
  put(source: Readable, owner: { subject_id: string }): Promise<StoredBlob>;
  /** The plain bytes; throws BlobNotFoundError, or BlobErasedError when the owner's key was destroyed. */
  open(blobId: string): Promise<Readable>;
  delete(blobId: string): Promise<void>;
  close(): Promise<void>;
}

export class BlobNotFoundError extends Error {
  constructor() {
    super('No blob with this id');
    this.name = 'BlobNotFoundError';
  }
}

export class BlobErasedError extends Error {
  constructor() {
    super("The blob's data key was destroyed");
    this.name = 'BlobErasedError';
  }
}

/** Blob ids: 32 lower-case hex digits (128 random bits). Anything else is refused before it reaches a path or a query. */
export const BLOB_ID = /^[0-9a-f]{32}$/;
