import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import type { KeyById, KeyForSubject } from '../keystore/event-envelope';
import { BlobErasedError, BlobNotFoundError, type BlobStore, type RawBlobStore, type StoredBlob } from './port';

/**
 * Encryption of blobs under their owner's data key, as a stream: AES-256-GCM over chunks of 64 KiB, each with a
 * fresh 96-bit IV and its own tag, bound (additional data) to the blob id, the key id, the chunk's index and whether
 * it is the last, so chunks cannot be altered, reordered, dropped or moved to another blob unnoticed, and a
 * truncated blob does not open. Layout: `TMB1`, key id length (1 byte), key id; then per chunk IV ‖ ciphertext ‖ tag.
 * The last chunk is always shorter than 64 KiB (empty when the size is a multiple of it).
 */
const MAGIC = Buffer.from('TMB1');
export const BLOB_CHUNK_BYTES = 64 * 1024;
const IV = 12;
const TAG = 16;
const RECORD = BLOB_CHUNK_BYTES + IV + TAG;

const aad = (blobId: string, keyId: string, index: number, last: boolean) => Buffer.from(`TMB1\0${blobId}\0${keyId}\0${index}\0${last ? 1 : 0}`);

class SealStream extends Transform {
  private pending: Buffer = Buffer.alloc(0);
  private index = 0;
  private started = false;

  constructor(
    private readonly key: Buffer,
    private readonly keyId: string,
    private readonly blobId: string,
  ) {
    super();
  }

  private header(): void {
    if (this.started) return;
    this.started = true;
    const id = Buffer.from(this.keyId, 'utf8');
    this.push(Buffer.concat([MAGIC, Buffer.from([id.length]), id]));
  }

  private seal(plain: Buffer, last: boolean): Buffer {
    const iv = randomBytes(IV);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv, { authTagLength: TAG });
    cipher.setAAD(aad(this.blobId, this.keyId, this.index, last));
    this.index += 1;
    return Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.header();
    this.pending = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    while (this.pending.length >= BLOB_CHUNK_BYTES) {
      this.push(this.seal(this.pending.subarray(0, BLOB_CHUNK_BYTES), false));
      this.pending = this.pending.subarray(BLOB_CHUNK_BYTES);
    }
    callback();
  }

  override _flush(callback: TransformCallback): void {
    this.header();
    this.push(this.seal(this.pending, true));
    callback();
  }
}

class OpenStream extends Transform {
  private pending: Buffer = Buffer.alloc(0);
  private index = 0;
  private keyId: string | null = null;
  private key: Buffer | null = null;
  /** Settles once the header was read and its key looked up: erased or damaged blobs fail before any byte is sent. */
  readonly ready: Promise<void>;
  private settle!: (error?: Error) => void;

  constructor(
    private readonly blobId: string,
    private readonly keyById: KeyById,
  ) {
    super();
    this.ready = new Promise<void>((resolve, reject) => {
      this.settle = (error) => (error ? reject(error) : resolve());
    });
    this.ready.catch(() => undefined);
  }

  private open(record: Buffer, last: boolean): Buffer {
    const decipher = createDecipheriv('aes-256-gcm', this.key!, record.subarray(0, IV), { authTagLength: TAG });
    decipher.setAAD(aad(this.blobId, this.keyId!, this.index, last));
    decipher.setAuthTag(record.subarray(record.length - TAG));
    this.index += 1;
    return Buffer.concat([decipher.update(record.subarray(IV, record.length - TAG)), decipher.final()]);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.pending = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    void this.drain(false).then(
      () => callback(),
      (error: Error) => callback(error),
    );
  }

  override _flush(callback: TransformCallback): void {
    void this.drain(true).then(
      () => callback(),
      (error: Error) => callback(error),
    );
  }

  private async drain(end: boolean): Promise<void> {
    try {
      if (!this.key) {
        if (this.pending.length < 5 && !end) return;
        const length = this.pending[4] ?? 0;
        if (this.pending.length < 5 + length && !end) return;
        if (this.pending.length < 5 + length || !this.pending.subarray(0, 4).equals(MAGIC)) throw new Error('Not an encrypted blob');
        this.keyId = this.pending.subarray(5, 5 + length).toString('utf8');
        this.pending = this.pending.subarray(5 + length);
        const key = await this.keyById(this.keyId);
        if (!key) throw new BlobErasedError();
        this.key = key;
        this.settle();
      }
      // A full record is known not to be the last only once more bytes follow it.
      while (this.pending.length > RECORD) {
        this.push(this.open(this.pending.subarray(0, RECORD), false));
        this.pending = this.pending.subarray(RECORD);
      }
      if (end) {
        if (this.pending.length < IV + TAG || this.pending.length >= RECORD) throw new Error('Truncated blob');
        this.push(this.open(this.pending, true));
        this.pending = Buffer.alloc(0);
      }
    } catch (error) {
      const failure = error instanceof BlobErasedError ? error : new Error('The blob does not authenticate (altered or truncated)');
      this.settle(failure);
      throw failure;
    }
  }
}

class Digest extends Transform {
  readonly hash = createHash('sha256');
  size = 0;
  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.hash.update(chunk);
    this.size += chunk.length;
    callback(null, chunk);
  }
}

/** The product's BlobStore: a raw store (files or GridFS) with every blob encrypted under its owner's data key. */
export class EncryptingBlobStore implements BlobStore {
  constructor(
    readonly raw: RawBlobStore,
    private readonly keys: { keyFor: KeyForSubject; keyById: KeyById },
  ) {}

  get kind() {
    return this.raw.kind;
  }

  async put(source: Readable, owner: { subject_id: string }): Promise<StoredBlob> {
    const found = await this.keys.keyFor(owner.subject_id);
    if (!found) {
      source.resume();
      throw new BlobErasedError();
    }
    const blob_id = randomBytes(16).toString('hex');
    const digest = new Digest();
    const seal = new SealStream(found.key, found.key_id, blob_id);
    source.on('error', (error) => digest.destroy(error));
    digest.on('error', (error) => seal.destroy(error));
    await this.raw.write(blob_id, source.pipe(digest).pipe(seal));
    return { blob_id, size: digest.size, sha256: digest.hash.digest('hex') };
  }

  async open(blobId: string): Promise<Readable> {
    const raw = await this.raw.read(blobId);
    if (!raw) throw new BlobNotFoundError();
    const plain = new OpenStream(blobId, this.keys.keyById);
    raw.on('error', (error) => plain.destroy(error));
    raw.pipe(plain);
    try {
      await plain.ready;
    } catch (error) {
      raw.destroy();
      plain.destroy();
      throw error;
    }
    return plain;
  }

  delete(blobId: string): Promise<void> {
    return this.raw.delete(blobId);
  }

  close(): Promise<void> {
    return this.raw.close();
  }
}
