import { createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { PAGE_TEXT_SQL } from '../event-store/sqlite-page';
import { ENVELOPE_VERSION, decryptParts, encryptField, fieldContext, parseCiphertext, type FieldCiphertext } from './envelope';

/** What the thread is started with (plain data: the thread loads neither contracts nor zod). */
export interface ThreadSetup {
  filename: string;
  /** Event type → its personal fields (contracts' PERSONAL_FIELDS). */
  fields: Record<string, readonly string[]>;
  /** Types whose events make the reader forget a key: a page holding one is left to the reader, in log order. */
  erasures: readonly string[];
  /** What a field whose key was destroyed reads as. */
  erased: string;
  /** Event type → its fields sealed as JSON text (contracts' PersonalFieldRule.json) → the JSON text of what each reads as once erased. */
  json: Record<string, Record<string, string>>;
  /** Keys held before the thread forgets them all (the reader's own key cache holds as many). */
  maxKeys: number;
  /** Pages read ahead of the last one taken. */
  depth: number;
}

export type ToThread =
  /** Read pages after `after`, `limit` at a time, until told otherwise; `forgotten`: the reader's key-forget count. */
  | { kind: 'read'; run: number; after: number; limit: number; forgotten: number }
  /** A page of the run was taken: one more may be read. */
  | { kind: 'took'; run: number }
  /** The keys asked for (null: destroyed), under the reader's forget count when it looked them up. */
  | { kind: 'keys'; run: number; keys: Map<string, Uint8Array | null>; forgotten: number }
  | { kind: 'stop' };

export type FromThread =
  | { kind: 'ready' }
  | { kind: 'need'; run: number; keyIds: string[] }
  /**
   * The page after `after`: its events as JSON text as stored, and its personal fields' plain values as patches, or
   * text null when the reader must read it itself (short, holding an erasure, a field that does not authenticate, keys
   * that changed meanwhile). `forgotten`: the forget count its keys were given under. The run stops after a page
   * without text.
   */
  | { kind: 'page'; run: number; after: number; count: number; last: number; text: string | null; patches: PagePatch[]; forgotten: number };

/** A personal field of the page's event at `position`, in clear (or as it reads once erased), in log order. */
export type PagePatch = [position: number, field: string, value: unknown];

// The body of the thread (see DecryptingReadAhead): its own read-only connection to the log; for each page, the
// personal fields decrypted with keys the reader hands over, and the page sent back as one JSON text.
const setup = workerData as ThreadSetup;
const port = parentPort!;
const db = new Database(setup.filename, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 5000');
const page = db.prepare(PAGE_TEXT_SQL);
type PageText = { text: string; count: number; last: number };
const erasures = new Set(setup.erasures);

const held = new Map<string, KeyObject | null>();
let heldAsOf = -1;

interface Run {
  id: number;
  after: number;
  limit: number;
  credits: number;
}
let current: Run | null = null;
let pumping = false;
let keyReply: { run: number; resolve(reply: Extract<ToThread, { kind: 'keys' }> | null): void } | null = null;

function holdAsOf(forgotten: number): void {
  if (forgotten === heldAsOf && held.size <= setup.maxKeys) return;
  held.clear();
  heldAsOf = forgotten;
}

function keysFor(run: number, keyIds: string[]): Promise<Extract<ToThread, { kind: 'keys' }> | null> {
  return new Promise((resolve) => {
    keyReply = { run, resolve };
    port.postMessage({ kind: 'need', run, keyIds } satisfies FromThread);
  });
}

/** Per event type, its personal fields and how each starts when it holds a ciphertext (`"notes":"enc1.`). */
const sealedStarts = new Map<string, Array<{ field: string; start: string }>>();
for (const [type, fields] of Object.entries(setup.fields)) {
  if (fields.length > 0) sealedStarts.set(type, fields.map((field) => ({ field, start: `"${field}":"${ENVELOPE_VERSION}.` })));
}

/**
 * The events of a page that hold personal fields or make the reader forget a key, with their data's JSON text: only
 * these are looked at here. The page itself comes from SQLite as one text (PAGE_TEXT_SQL), as it does without
 * encryption, and the fields opened here are sent beside it (PagePatch).
 */
const watchedTypes = JSON.stringify([...sealedStarts.keys(), ...erasures]);
const watched = db.prepare(`SELECT position, type, data FROM events WHERE position > ? AND position <= ? AND type IN (SELECT value FROM json_each(?)) ORDER BY position`).raw(true);
type WatchedRow = [position: number, type: string, data: string];

interface Sealed {
  field: string;
  parts: FieldCiphertext;
}

/**
 * The personal fields of an event's data (its JSON text) that hold a ciphertext, found without parsing: in
 * JSON.stringify's text (no spaces) a field starts as `"notes":"`, and inside another string its quotes would be
 * escaped, so only real fields match. A ciphertext needs no escaping: its value ends at the next quote.
 */
function sealedFields(starts: ReadonlyArray<{ field: string; start: string }>, data: string): Sealed[] {
  const found: Sealed[] = [];
  for (const { field, start } of starts) {
    for (let at = data.indexOf(start); at >= 0; at = data.indexOf(start, at + start.length)) {
      const value = at + field.length + 4; // after `"field":"`
      const parts = parseCiphertext(data.slice(value, data.indexOf('"', value)));
      if (parts) found.push({ field, parts });
    }
  }
  return found;
}

/** Keys as node:crypto objects: a decipher made from one skips importing the 32 bytes again (a third of its cost). */
function keyObjectOf(key: Uint8Array | null): KeyObject | null {
  return key ? createSecretKey(key) : null;
}

/** The plain values of the personal fields of the page from `after` to `last`, as patches (see FromThread), or null. */
function openPage(run: Run, after: number, last: number): Promise<PagePatch[] | null> {
  return openRows(run, watched.all(after, last, watchedTypes) as WatchedRow[]);
}

async function openRows(run: Run, rows: WatchedRow[]): Promise<PagePatch[] | null> {
  const sealed: Array<Sealed[] | undefined> = new Array(rows.length);
  const missing = new Set<string>();
  for (let i = 0; i < rows.length; i += 1) {
    const [, type, data] = rows[i]!;
    if (erasures.has(type)) return null;
    const found = sealedFields(sealedStarts.get(type)!, data);
    if (found.length === 0) continue;
    sealed[i] = found;
    for (const { parts } of found) if (!held.has(parts.k)) missing.add(parts.k);
  }
  if (missing.size > 0) {
    const reply = await keysFor(run.id, [...missing]);
    if (!reply || reply.forgotten !== heldAsOf) return null;
    for (const [keyId, key] of reply.keys) held.set(keyId, keyObjectOf(key));
  }
  const patches: PagePatch[] = [];
  for (let i = 0; i < rows.length; i += 1) {
    const found = sealed[i];
    if (!found) continue;
    const [position, type] = rows[i]!;
    for (const { field, parts } of found) {
      const key = held.get(parts.k);
      if (key === undefined) return null;
      const json = setup.json[type]?.[field];
      let value: unknown;
      try {
        if (key === null) value = json === undefined ? setup.erased : JSON.parse(json);
        else {
          const plain = decryptParts(parts, key, fieldContext(type, field));
          // A JSON field's plain text is its value's JSON text (authenticated: as it was sealed).
          value = json === undefined ? plain : JSON.parse(plain);
        }
      } catch {
        return null; // the reader decrypts it itself and reports it
      }
      patches.push([position, field, value]);
    }
  }
  return patches;
}

async function pump(): Promise<void> {
  while (current && current.credits > 0) {
    const run = current;
    const read = page.get(run.after, run.limit) as PageText;
    const last = read.count > 0 ? read.last : run.after;
    const patches = read.count === run.limit ? await openPage(run, run.after, last) : null;
    if (current !== run) continue; // restarted meanwhile
    const text = patches ? read.text : null;
    port.postMessage({ kind: 'page', run: run.id, after: run.after, count: read.count, last, text, patches: patches ?? [], forgotten: heldAsOf } satisfies FromThread);
    run.after = last;
    run.credits -= 1;
    if (text === null) current = null;
  }
}

function schedule(): void {
  if (pumping) return;
  pumping = true;
  pump()
    .catch(() => {
      // A failed read ends the run; the reader reads in line (it never waits on a page that will not come).
      const run = current;
      current = null;
      if (run) port.postMessage({ kind: 'page', run: run.id, after: run.after, count: 0, last: run.after, text: null, patches: [], forgotten: heldAsOf } satisfies FromThread);
    })
    .finally(() => {
      pumping = false;
      if (current && current.credits > 0) schedule();
    });
}

port.on('message', (message: ToThread) => {
  switch (message.kind) {
    case 'read':
      keyReply?.resolve(null);
      keyReply = null;
      holdAsOf(message.forgotten);
      current = { id: message.run, after: message.after, limit: message.limit, credits: setup.depth };
      schedule();
      break;
    case 'took':
      if (current?.id === message.run) {
        current.credits += 1;
        schedule();
      }
      break;
    case 'keys':
      if (keyReply?.run === message.run) {
        const { resolve } = keyReply;
        keyReply = null;
        resolve(message);
      }
      break;
    case 'stop':
      current = null;
      keyReply?.resolve(null);
      db.close();
      port.close();
      break;
  }
});
/**
 * Opens a page of made-up events under a made-up key before the thread says it is ready: every rebuild starts a new
 * thread, whose first pages otherwise ran on code not yet compiled, and the applying thread waited for them (most of
 * what decryption cost a rebuild of 100 000 events). Nothing of it stays: the key is forgotten, the text dropped.
 */
async function warmUp(): Promise<void> {
  const [type, fields] = Object.entries(setup.fields).find(([name, list]) => list.length > 0 && !erasures.has(name)) ?? [];
  if (!type || !fields) return;
  const keyId = 'dk-warm-up';
  const key = randomBytes(32);
  const rows: WatchedRow[] = [];
  for (let i = 1; i <= 400; i += 1) {
    const data: Record<string, unknown> = { id: `warm-up-${i}` };
    for (const field of fields) data[field] = encryptField(`warm-up ${i}`, key, keyId, fieldContext(type, field));
    rows.push([i, type, JSON.stringify(data)]);
  }
  held.set(keyId, createSecretKey(key));
  try {
    await openRows({ id: -1, after: 0, limit: rows.length, credits: 0 }, rows);
  } finally {
    held.delete(keyId);
  }
}

void warmUp()
  .catch(() => undefined) // only a head start: the pages are opened the same without it
  .then(() => port.postMessage({ kind: 'ready' } satisfies FromThread));
