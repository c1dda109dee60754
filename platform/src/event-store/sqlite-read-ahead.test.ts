import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { SqliteEventStore } from './sqlite';
import { SqliteReadAhead } from './sqlite-read-ahead';
import { inPositionOrder } from './sqlite-page';

const event = (i: number) => ({
  event_id: randomUUID(),
  type: 'Noted',
  // Quotes, backslashes, control and non-ASCII characters: the page's text is put together around them.
  data: { i, text: `"quoted" \\ back\nslash — नमस्ते ${i}`, nested: { list: [i, null, true] } },
  metadata: { actor: { user_id: 'u', role: 'system' }, correlation_id: randomUUID(), causation_id: null, occurred_at: new Date(0).toISOString() },
});

/** The log as a plain connection reads it, parsed row by row: what every page must equal. */
function readDirectly(file: string) {
  const db = new Database(file, { readonly: true });
  const rows = db.prepare<[], Record<string, unknown>>('SELECT * FROM events ORDER BY position').all();
  db.close();
  return rows.map((r) => ({ ...r, data: JSON.parse(r.data as string) as unknown, metadata: JSON.parse(r.metadata as string) as unknown }));
}

describe('SQLite log read ahead on a worker thread', () => {
  it('has no thread for a log in memory, which no other connection can open', async () => {
    const store = new SqliteEventStore({ filename: ':memory:' });
    assert.equal(await store.readAheadOnThread(), false, 'a log in memory is read on its own thread only');
    await store.close();
  });

  it('pages read through history equal the log row by row, with appends between the pages', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'read-ahead-')), 'events.db');
    const store = new SqliteEventStore({ filename: file });
    assert.equal(await store.readAheadOnThread(), true, 'the thread started and answered before any page was read');
    for (let s = 0; s < 25; s += 1) await store.appendToStream(`s-${s}`, Array.from({ length: 40 }, (_, i) => event(s * 40 + i)));
    const read: unknown[] = [];
    let after = 0;
    for (let page = 0; ; page += 1) {
      const events = await store.readAll({ fromPosition: after, limit: 150 });
      if (events.length === 0) break;
      read.push(...events);
      after = events[events.length - 1]!.position;
      // The log grows while it is read: a page read ahead before these appends is still the right page.
      if (page === 2) await store.appendToStream('late', [event(-1), event(-2)]);
    }
    assert.equal(read.length, 1002);
    assert.deepEqual(read, readDirectly(file));
    await store.close();
  });

  it('gives a full page only: a short one (the tail, which may have grown) is left to the caller', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'read-ahead-')), 'events.db');
    const store = new SqliteEventStore({ filename: file });
    await store.appendToStream('s', Array.from({ length: 10 }, (_, i) => event(i)));
    const ahead = SqliteReadAhead.for(file)!;
    ahead.request(0, 10);
    const full = await ahead.take(0, 10);
    assert.equal(full?.length, 10);
    assert.deepEqual(full, readDirectly(file));
    ahead.request(5, 10);
    assert.equal(await ahead.take(5, 10), null, 'five events after position 5: short, not used');
    assert.equal(await ahead.take(0, 10), null, 'a page not asked for is not there');
    await ahead.stop();
    await store.close();
  });

  it('reads the page after a full one before it is asked for, and never answers a tail that has grown since with what it read then', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'read-ahead-')), 'events.db');
    const store = new SqliteEventStore({ filename: file });
    await store.appendToStream('s', Array.from({ length: 25 }, (_, i) => event(i)));
    const ahead = SqliteReadAhead.for(file)!;
    ahead.request(0, 10);
    assert.equal((await ahead.take(0, 10))?.length, 10);
    // The thread has read (10, 10] by itself meanwhile: asked for now, it is the same page as the log holds.
    await new Promise((resolve) => setTimeout(resolve, 50));
    ahead.request(10, 10);
    assert.deepEqual(await ahead.take(10, 10), readDirectly(file).slice(10, 20));
    // (20, 30] held 5 events when the thread read it ahead; 5 more are appended before it is asked for.
    await new Promise((resolve) => setTimeout(resolve, 50));
    await store.appendToStream('t', Array.from({ length: 5 }, (_, i) => event(100 + i)));
    ahead.request(20, 10);
    assert.deepEqual(await ahead.take(20, 10), readDirectly(file).slice(20, 30));
    await ahead.stop();
    await store.close();
  });

  it('is not started for an in-memory log, which reads as before', async () => {
    assert.equal(SqliteReadAhead.for(':memory:'), null);
    const store = new SqliteEventStore({ filename: ':memory:' });
    await store.appendToStream('s', Array.from({ length: 300 }, (_, i) => event(i)));
    const pages = [await store.readAll({ fromPosition: 0, limit: 200 }), await store.readAll({ fromPosition: 200, limit: 200 })];
    assert.deepEqual(pages.map((p) => p.length), [200, 100]);
    await store.close();
  });
});

describe('a page joined by SQLite', () => {
  it('is put in position order when SQLite joined it otherwise, and left as it is when in order', () => {
    const inOrder = [{ position: 1 }, { position: 2 }, { position: 5 }];
    assert.equal(inPositionOrder(inOrder), inOrder);
    assert.deepEqual(inOrder.map((e) => e.position), [1, 2, 5]);
    assert.deepEqual(inPositionOrder([{ position: 3 }, { position: 1 }, { position: 2 }]).map((e) => e.position), [1, 2, 3]);
  });
});
