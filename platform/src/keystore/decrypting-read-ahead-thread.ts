import { randomBytes } from 'node:crypto';
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { PAGE_SQL, dataBounds, type PageRow } from '../event-store/sqlite-page';
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
   * The page after `after`: its events as JSON text with their personal fields in clear, or null when the reader must
   * read it itself (short, holding an erasure, a field that does not authenticate, keys that changed meanwhile).
   * `forgotten`: the forget count its keys were given under. The run stops after a page without text.
   */
  | { kind: 'page'; run: number; after: number; count: number; last: number; text: string | null; forgotten: number };

// The body of the thread (see DecryptingReadAhead): its own read-only connection to the log; for each page, the
// personal fields decrypted with keys the reader hands over, and the page sent back as one JSON text.
const setup = workerData as ThreadSetup;
const port = parentPort!;
const db = new Database(setup.filename, { readonly: true, fileMustExist: true });
db.pragma('busy_timeout = 5000');
const page = db.prepare(PAGE_SQL).raw(true);
const erasures = new Set(setup.erasures);

const held = new Map<string, Buffer | null>();
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

interface Sealed {
  /** Where `"field":"…"` starts and ends in the event's text. */
  start: number;
  end: number;
  field: string;
  parts: FieldCiphertext;
}

/**
 * The personal fields of the event's data that hold a ciphertext, in the order they appear, found without parsing: in
 * JSON.stringify's text (no spaces) a field starts as `"notes":"`, and inside another string its quotes would be
 * escaped, so only real fields match. A ciphertext needs no escaping: its value ends at the next quote.
 */
function sealedFields(starts: ReadonlyArray<{ field: string; start: string }>, text: string): Sealed[] {
  const data = dataBounds(text);
  const found: Sealed[] = [];
  for (const { field, start } of starts) {
    for (let at = text.indexOf(start, data.start); at >= 0 && at < data.end; at = text.indexOf(start, at + start.length)) {
      const value = at + field.length + 4; // after `"field":"`
      const end = text.indexOf('"', value);
      const parts = parseCiphertext(text.slice(value, end));
      if (parts) found.push({ start: at, end: end + 1, field, parts });
    }
  }
  if (found.length > 1) found.sort((a, b) => a.start - b.start);
  return found;
}

/**
 * The page's text with its personal fields in clear, or null (see FromThread). The fields are replaced in each event's
 * JSON text, which is otherwise passed on as stored: no parse and stringify of the rest.
 */
async function openPage(run: Run, rows: PageRow[]): Promise<string | null> {
  const sealed: Array<Sealed[] | undefined> = new Array(rows.length);
  const missing = new Set<string>();
  for (let i = 0; i < rows.length; i += 1) {
    const type = rows[i]![1];
    if (erasures.has(type)) return null;
    const starts = sealedStarts.get(type);
    if (!starts) continue;
    const found = sealedFields(starts, rows[i]![2]);
    if (found.length === 0) continue;
    sealed[i] = found;
    for (const { parts } of found) if (!held.has(parts.k)) missing.add(parts.k);
  }
  if (missing.size > 0) {
    const reply = await keysFor(run.id, [...missing]);
    if (!reply || reply.forgotten !== heldAsOf) return null;
    for (const [keyId, key] of reply.keys) held.set(keyId, key ? Buffer.from(key.buffer, key.byteOffset, key.byteLength) : null);
  }
  let page = '[';
  for (let i = 0; i < rows.length; i += 1) {
    const [, type, text] = rows[i]!;
    const found = sealed[i];
    let opened = '';
    let from = 0;
    for (const { start, end, field, parts } of found ?? []) {
      const key = held.get(parts.k);
      if (key === undefined) return null;
      // A JSON field's plain text is its value's JSON text (authenticated: as it was sealed), put in as it is.
      const json = setup.json[type]?.[field];
      let value: string;
      if (key === null) value = json ?? JSON.stringify(setup.erased);
      else {
        try {
          const plain = decryptParts(parts, key, fieldContext(type, field));
          if (json !== undefined) JSON.parse(plain); // not JSON: the reader opens it itself and reports it
          value = json === undefined ? JSON.stringify(plain) : plain;
        } catch {
          return null; // the reader decrypts it itself and reports it
        }
      }
      opened += `${text.slice(from, start)}"${field}":${value}`;
      from = end;
    }
    page += (i > 0 ? ',' : '') + (found ? opened + text.slice(from) : text);
  }
  return `${page}]`;
}

async function pump(): Promise<void> {
  while (current && current.credits > 0) {
    const run = current;
    const rows = page.all(run.after, run.limit) as PageRow[];
    const full = rows.length === run.limit;
    const text = full ? await openPage(run, rows) : null;
    if (current !== run) continue; // restarted meanwhile
    const last = rows.length > 0 ? rows[rows.length - 1]![0] : run.after;
    port.postMessage({ kind: 'page', run: run.id, after: run.after, count: rows.length, last, text, forgotten: heldAsOf } satisfies FromThread);
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
      if (run) port.postMessage({ kind: 'page', run: run.id, after: run.after, count: 0, last: run.after, text: null, forgotten: heldAsOf } satisfies FromThread);
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
  const rows: PageRow[] = [];
  for (let i = 1; i <= 400; i += 1) {
    const data: Record<string, unknown> = { id: `warm-up-${i}` };
    for (const field of fields) data[field] = encryptField(`warm-up ${i}`, key, keyId, fieldContext(type, field));
    rows.push([i, type, `{"position":${i},"type":${JSON.stringify(type)},"data":${JSON.stringify(data)},"metadata":{}}`]);
  }
  held.set(keyId, key);
  try {
    await openPage({ id: -1, after: 0, limit: rows.length, credits: 0 }, rows);
  } finally {
    held.delete(keyId);
  }
}

void warmUp()
  .catch(() => undefined) // only a head start: the pages are opened the same without it
  .then(() => port.postMessage({ kind: 'ready' } satisfies FromThread));
