import Database from 'better-sqlite3';
import { ensurePrivateFile } from '../private-files';

/**
 * One writer per read-models file: an exclusive SQLite lock on a small file beside it, held until release or the
 * process ends (the operating system drops it on a crash). Readers in other processes never take it.
 */
export class WriterLock {
  private constructor(private readonly db: Database.Database) {}

  /** Takes the lock at once or throws, naming the file. */
  static acquire(filename: string): WriterLock {
    ensurePrivateFile(filename);
    const db = new Database(filename, { timeout: 0 });
    try {
      db.pragma('locking_mode = EXCLUSIVE');
      db.exec('BEGIN EXCLUSIVE');
      return new WriterLock(db);
    } catch (error) {
      db.close();
      if ((error as { code?: string }).code === 'SQLITE_BUSY') {
        throw new Error(
          `${filename} is held by another process writing the same read models (a running server?); stop it first, rebuild through POST /api/v1/admin/projections/{name}/rebuild, or check with npm run replay -- --in-memory`,
          { cause: error },
        );
      }
      throw error;
    }
  }

  release(): void {
    if (this.db.open) this.db.close();
  }
}
