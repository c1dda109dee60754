import { WrappedKeyStore, type KeyRow, type KeyRows } from './wrapped-key-store';
import type { MasterKeys } from './master-key';

/** Rows in a Map: for tests, and to show what the port asks of a storage. */
class MemoryKeyRows implements KeyRows {
  private readonly rows = new Map<string, KeyRow>();

  async insertIfAbsent(row: KeyRow) {
    const existing = this.rows.get(row.subject_id);
    if (existing) return { ...existing };
    this.rows.set(row.subject_id, { ...row });
    return { ...row };
  }
  async bySubject(subjectId: string) {
    const row = this.rows.get(subjectId);
    return row ? { ...row } : null;
  }
  async byKeyId(keyId: string) {
    for (const row of this.rows.values()) if (row.key_id === keyId) return { ...row };
    return null;
  }
  async byKeyIds(keyIds: readonly string[]) {
    const wanted = new Set(keyIds);
    return [...this.rows.values()].filter((row) => wanted.has(row.key_id)).map((row) => ({ ...row }));
  }
  async destroy(tombstone: KeyRow & { destroyed_at: string }) {
    const row = this.rows.get(tombstone.subject_id);
    if (!row) this.rows.set(tombstone.subject_id, { ...tombstone });
    if (!row?.wrapped) return false;
    row.wrapped.fill(0);
    this.rows.set(tombstone.subject_id, { ...row, wrapped: null, master_key_id: null, destroyed_at: tombstone.destroyed_at });
    return true;
  }
  async wrappedByOtherThan(masterKeyId: string, limit: number) {
    return [...this.rows.values()].filter((r) => r.wrapped && r.master_key_id !== masterKeyId).slice(0, limit).map((r) => ({ ...r }));
  }
  async rewrap(keyId: string, fromMasterKeyId: string, to: { master_key_id: string; wrapped: Buffer }) {
    for (const row of this.rows.values()) {
      if (row.key_id === keyId && row.wrapped && row.master_key_id === fromMasterKeyId) this.rows.set(row.subject_id, { ...row, ...to });
    }
  }
  async countByMasterKey() {
    const counts = new Map<string, number>();
    for (const row of this.rows.values()) if (row.wrapped && row.master_key_id) counts.set(row.master_key_id, (counts.get(row.master_key_id) ?? 0) + 1);
    return [...counts].map(([master_key_id, keys]) => ({ master_key_id, keys }));
  }
  async close() {}
}

/** A key store in memory (lost on exit): tests only. */
export class MemoryKeyStore extends WrappedKeyStore {
  constructor(masters: MasterKeys, clock?: () => Date) {
    super('memory', new MemoryKeyRows(), masters, clock);
  }
}
