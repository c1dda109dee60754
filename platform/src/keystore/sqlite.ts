import Database from 'better-sqlite3';
import { ensurePrivateFile } from '../private-files';

import { WrappedKeyStore, type KeyRow, type KeyRows } from './wrapped-key-store';
import type { MasterKeys } from './master-key';

/**
 * Wrapped data keys in a SQLite file of their own (never the event store's). secure_delete overwrites what a
 * destroy or a rotation removes, and a destroy truncates the write-ahead log, so a destroyed wrap leaves no copy in
 * the files. synchronous=FULL: a key must outlive any power loss once an event was encrypted with it.
 */
class SqliteKeyRows implements KeyRows {
  private readonly db: Database.Database;
  private readonly stmts;

  constructor(filename: string) {
    if (filename !== ':memory:' && filename !== '') ensurePrivateFile(filename);
    this.db = new Database(filename);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = FULL');
    this.db.pragma('secure_delete = ON');
    this.db.pragma('busy_timeout = 5000');
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS data_keys (
        subject_id TEXT PRIMARY KEY,
        key_id TEXT NOT NULL UNIQUE,
        master_key_id TEXT,
        wrapped BLOB,
        created_at TEXT NOT NULL,
        destroyed_at TEXT
      ) WITHOUT ROWID;
      CREATE INDEX IF NOT EXISTS data_keys_master ON data_keys (master_key_id);
    `);
    this.stmts = {
      insert: this.db.prepare(
        'INSERT INTO data_keys (subject_id, key_id, master_key_id, wrapped, created_at, destroyed_at) VALUES (@subject_id, @key_id, @master_key_id, @wrapped, @created_at, @destroyed_at) ON CONFLICT (subject_id) DO NOTHING',
      ),
      bySubject: this.db.prepare<[string], KeyRow>('SELECT * FROM data_keys WHERE subject_id = ?'),
      byKeyId: this.db.prepare<[string], KeyRow>('SELECT * FROM data_keys WHERE key_id = ?'),
      byKeyIds: this.db.prepare<[string], KeyRow>('SELECT * FROM data_keys WHERE key_id IN (SELECT value FROM json_each(?))'),
      destroy: this.db.prepare(
        'UPDATE data_keys SET wrapped = NULL, master_key_id = NULL, destroyed_at = ? WHERE subject_id = ? AND wrapped IS NOT NULL',
      ),
      others: this.db.prepare<[string, number], KeyRow>(
        'SELECT * FROM data_keys WHERE wrapped IS NOT NULL AND master_key_id IS NOT ? ORDER BY key_id LIMIT ?',
      ),
      rewrap: this.db.prepare('UPDATE data_keys SET master_key_id = ?, wrapped = ? WHERE key_id = ? AND master_key_id = ?'),
      counts: this.db.prepare<[], { master_key_id: string; keys: number }>(
        'SELECT master_key_id, COUNT(*) AS keys FROM data_keys WHERE wrapped IS NOT NULL GROUP BY master_key_id',
      ),
    };
  }

  async insertIfAbsent(row: KeyRow) {
    this.stmts.insert.run(row);
    return this.stmts.bySubject.get(row.subject_id)!;
  }
  async bySubject(subjectId: string) {
    return this.stmts.bySubject.get(subjectId) ?? null;
  }
  async byKeyId(keyId: string) {
    return this.stmts.byKeyId.get(keyId) ?? null;
  }
  async byKeyIds(keyIds: readonly string[]) {
    return this.stmts.byKeyIds.all(JSON.stringify(keyIds));
  }
  async destroy(tombstone: KeyRow & { destroyed_at: string }) {
    const changed = this.destroyOrBury(tombstone);
    // The old page images with the wrap live on in the log until a checkpoint: fold it in and empty it now.
    if (changed) this.db.pragma('wal_checkpoint(TRUNCATE)');
    return changed;
  }
  /** One transaction: the wrap is removed, or a tombstone takes the place of a key never made (insert does nothing if one appeared). */
  private readonly destroyOrBury = (tombstone: KeyRow & { destroyed_at: string }): boolean =>
    this.db.transaction(() => {
      if (this.stmts.destroy.run(tombstone.destroyed_at, tombstone.subject_id).changes > 0) return true;
      this.stmts.insert.run(tombstone);
      return false;
    })();
  async wrappedByOtherThan(masterKeyId: string, limit: number) {
    return this.stmts.others.all(masterKeyId, limit);
  }
  async rewrap(keyId: string, fromMasterKeyId: string, to: { master_key_id: string; wrapped: Buffer }) {
    this.stmts.rewrap.run(to.master_key_id, to.wrapped, keyId, fromMasterKeyId);
  }
  async countByMasterKey() {
    return this.stmts.counts.all();
  }
  async close() {
    if (this.db.open) {
      this.db.pragma('wal_checkpoint(TRUNCATE)');
      this.db.close();
    }
  }
}

/** The embedded key store: DATA_DIR/keys.db. */
export class SqliteKeyStore extends WrappedKeyStore {
  constructor(options: { filename: string; masters: MasterKeys; clock?: () => Date }) {
    super('sqlite', new SqliteKeyRows(options.filename), options.masters, options.clock);
  }
}
