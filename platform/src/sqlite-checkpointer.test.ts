import assert from 'node:assert/strict';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { SqliteCheckpointer } from './sqlite-checkpointer';

describe('SQLite checkpoints on a worker thread', () => {
  it('the connection stops checkpointing in its commits, and the thread copies the log into the file', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'checkpointer-')), 'x.db');
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
    const checkpointer = SqliteCheckpointer.start(db, file, 50)!;
    assert.equal(db.pragma('wal_autocheckpoint', { simple: true }), 0);
    const before = statSync(file).size;
    const insert = db.prepare('INSERT INTO t (body) VALUES (?)');
    // Well past the thousand pages at which the connection would have checkpointed in a commit of its own.
    for (let i = 0; i < 3000; i += 1) insert.run('x'.repeat(2000));
    const deadline = Date.now() + 10_000;
    while (statSync(file).size <= before + 3000 * 2000 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.ok(statSync(file).size > before + 3000 * 2000, 'the rows reached the database file');
    await checkpointer.stop();
    db.close();
  });

  it('is not started for an in-memory database', () => {
    const db = new Database(':memory:');
    assert.equal(SqliteCheckpointer.start(db, ':memory:'), null);
    db.close();
  });
});
