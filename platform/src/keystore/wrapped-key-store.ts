import { createCipheriv, createDecipheriv, randomBytes, randomUUID } from 'node:crypto';
import { SubjectErasedError, UnknownMasterKeyError, type DataKey, type KeyStore, type RotationResult, type WrappingSummary } from './port';
import type { MasterKey, MasterKeys } from './master-key';

/** A data key as stored: wrapped (iv ‖ ciphertext ‖ tag under a master key), or destroyed (wrapped is null). */
export interface KeyRow {
  subject_id: string;
  key_id: string;
  master_key_id: string | null;
  wrapped: Buffer | null;
  created_at: string;
  destroyed_at: string | null;
}

/** What an adapter stores; the wrapping, idempotency and rotation rules live in WrappedKeyStore, once. */
export interface KeyRows {
  /** Inserts unless a row for the subject exists; returns the row that is stored either way. */
  insertIfAbsent(row: KeyRow): Promise<KeyRow>;
  bySubject(subjectId: string): Promise<KeyRow | null>;
  byKeyId(keyId: string): Promise<KeyRow | null>;
  /** The rows of these key ids that exist (in any order). */
  byKeyIds(keyIds: readonly string[]): Promise<KeyRow[]>;
  /**
   * Removes the wrapped key for good (the row stays as a tombstone); false when there was nothing to destroy. A subject
   * without a row gets `tombstone` (wrapped null), so no key is ever created for it afterwards.
   */
  destroy(tombstone: KeyRow & { destroyed_at: string }): Promise<boolean>;
  /** Rows wrapped by any master key but this one, in pages. */
  wrappedByOtherThan(masterKeyId: string, limit: number): Promise<KeyRow[]>;
  /** Replaces a wrap, only if the row still has the expected master key (a concurrent rotation wins once). */
  rewrap(keyId: string, fromMasterKeyId: string, to: { master_key_id: string; wrapped: Buffer }): Promise<void>;
  countByMasterKey(): Promise<Array<{ master_key_id: string; keys: number }>>;
  close(): Promise<void>;
}

const IV_BYTES = 12;
const TAG_BYTES = 16;
const DATA_KEY_BYTES = 32;
const ROTATION_PAGE = 500;

/** The wrap is bound to its row: a wrapped key copied to another subject or key id does not unwrap. */
const wrapContext = (row: Pick<KeyRow, 'subject_id' | 'key_id'>) => Buffer.from(`telemed-data-key\0${row.key_id}\0${row.subject_id}`);

export function wrapDataKey(dataKey: Buffer, master: MasterKey, row: Pick<KeyRow, 'subject_id' | 'key_id'>): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', master.key, iv);
  cipher.setAAD(wrapContext(row));
  const ciphertext = Buffer.concat([cipher.update(dataKey), cipher.final()]);
  return Buffer.concat([iv, ciphertext, cipher.getAuthTag()]);
}

export function unwrapDataKey(wrapped: Buffer, master: MasterKey, row: Pick<KeyRow, 'subject_id' | 'key_id'>): Buffer {
  const decipher = createDecipheriv('aes-256-gcm', master.key, wrapped.subarray(0, IV_BYTES));
  decipher.setAAD(wrapContext(row));
  decipher.setAuthTag(wrapped.subarray(wrapped.length - TAG_BYTES));
  return Buffer.concat([decipher.update(wrapped.subarray(IV_BYTES, wrapped.length - TAG_BYTES)), decipher.final()]);
}

/** The KeyStore rules over any row storage: random data keys, AES-256-GCM wraps, tombstones, rotation. */
export class WrappedKeyStore implements KeyStore {
  constructor(
    readonly kind: KeyStore['kind'],
    private readonly rows: KeyRows,
    private readonly masters: MasterKeys,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async create(subjectId: string): Promise<DataKey> {
    const existing = await this.rows.bySubject(subjectId);
    if (existing) return this.open(existing);
    const key = randomBytes(DATA_KEY_BYTES);
    const ids = { subject_id: subjectId, key_id: `dk-${randomUUID()}` };
    const stored = await this.rows.insertIfAbsent({
      ...ids,
      master_key_id: this.masters.current.id,
      wrapped: wrapDataKey(key, this.masters.current, ids),
      created_at: this.clock().toISOString(),
      destroyed_at: null,
    });
    return this.open(stored);
  }

  async get(subjectId: string): Promise<DataKey | null> {
    const row = await this.rows.bySubject(subjectId);
    return row?.wrapped ? this.open(row) : null;
  }

  async getByKeyId(keyId: string): Promise<DataKey | null> {
    const row = await this.rows.byKeyId(keyId);
    return row?.wrapped ? this.open(row) : null;
  }

  async getByKeyIds(keyIds: readonly string[]): Promise<DataKey[]> {
    if (keyIds.length === 0) return [];
    const rows = await this.rows.byKeyIds(keyIds);
    return rows.filter((row) => row.wrapped).map((row) => this.open(row));
  }

  destroy(subjectId: string): Promise<boolean> {
    const at = this.clock().toISOString();
    return this.rows.destroy({ subject_id: subjectId, key_id: `dk-${randomUUID()}`, master_key_id: null, wrapped: null, created_at: at, destroyed_at: at });
  }

  async wrapping(): Promise<WrappingSummary[]> {
    const counts = await this.rows.countByMasterKey();
    return counts.map((c) => ({ ...c, current: c.master_key_id === this.masters.current.id })).sort((a, b) => Number(b.current) - Number(a.current));
  }

  async rotate(): Promise<RotationResult> {
    const current = this.masters.current;
    let rewrapped = 0;
    for (;;) {
      const page = await this.rows.wrappedByOtherThan(current.id, ROTATION_PAGE);
      if (page.length === 0) break;
      for (const row of page) {
        const key = this.unwrap(row);
        await this.rows.rewrap(row.key_id, row.master_key_id!, { master_key_id: current.id, wrapped: wrapDataKey(key, current, row) });
        key.fill(0);
        rewrapped += 1;
      }
    }
    const total = (await this.rows.countByMasterKey()).reduce((sum, c) => sum + c.keys, 0);
    return { rewrapped, unchanged: total - rewrapped };
  }

  close(): Promise<void> {
    return this.rows.close();
  }

  private open(row: KeyRow): DataKey {
    if (!row.wrapped) throw new SubjectErasedError(row.subject_id);
    return { key_id: row.key_id, subject_id: row.subject_id, key: this.unwrap(row), created_at: row.created_at };
  }

  private unwrap(row: KeyRow): Buffer {
    const master = [this.masters.current, ...this.masters.previous].find((m) => m.id === row.master_key_id);
    if (!master) throw new UnknownMasterKeyError(row.master_key_id ?? 'none');
    return unwrapDataKey(row.wrapped!, master, row);
  }
}
