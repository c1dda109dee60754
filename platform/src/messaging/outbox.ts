import { join } from 'node:path';
import Database from 'better-sqlite3';
import { MESSAGE_CHANNELS, type MessageChannel, type MessageKind } from '@telemed/contracts';
import type { LanguageCode } from '@telemed/contracts/languages';
import { ensurePrivateFile } from '../private-files';
import type { MessageSender, OutgoingMessage } from './port';

/** One message the development outbox received in place of a channel. */
export interface OutboxRecord {
  id: string;
  message_id: string;
  idempotency_key: string;
  channel: MessageChannel;
  kind: MessageKind;
  language: LanguageCode;
  to: string;
  subject: string;
  text: string;
  created_at: string;
}

export interface OutboxStoreOptions {
  /** A SQLite file (`outboxFile(DATA_DIR)`), or `:memory:` for tests. */
  filename: string;
  /** Only the newest this many entries are kept. */
  keep?: number;
  now?: () => Date;
}

export const OUTBOX_KEEP = 10_000;

export function outboxFile(dataDir: string): string {
  return join(dataDir, 'outbox.db');
}

/** The outbox finds a recipient as it was addressed: trimmed, and an e-mail address in lower case. */
export function outboxRecipient(to: string): string {
  const trimmed = to.trim();
  return trimmed.includes('@') ? trimmed.toLowerCase() : trimmed;
}

interface OutboxRow extends Omit<OutboxRecord, 'id'> {
  id: number;
}

/**
 * What the development outbox received, newest first, for the /dev/outbox page and tests to read a sign-in code or a
 * link from. One entry per idempotency key: a repeated send is the same entry.
 */
export class OutboxStore {
  private readonly db: Database.Database;
  private readonly keep: number;
  private readonly now: () => Date;
  private readonly stmts;

  constructor(options: OutboxStoreOptions) {
    if (options.filename !== ':memory:') ensurePrivateFile(options.filename);
    this.keep = options.keep ?? OUTBOX_KEEP;
    this.now = options.now ?? (() => new Date());
    this.db = new Database(options.filename);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('busy_timeout = 5000');
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS outbox (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        idempotency_key TEXT NOT NULL UNIQUE,
        message_id TEXT NOT NULL,
        channel TEXT NOT NULL,
        kind TEXT NOT NULL,
        language TEXT NOT NULL,
        recipient TEXT NOT NULL,
        "to" TEXT NOT NULL,
        subject TEXT NOT NULL,
        text TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE INDEX IF NOT EXISTS outbox_recipient ON outbox (recipient, id);
    `);
    const columns = 'id, message_id, idempotency_key, channel, kind, language, "to", subject, text, created_at';
    this.stmts = {
      insert: this.db.prepare(
        `INSERT INTO outbox (idempotency_key, message_id, channel, kind, language, recipient, "to", subject, text, created_at)
         VALUES (@idempotency_key, @message_id, @channel, @kind, @language, @recipient, @to, @subject, @text, @created_at)
         ON CONFLICT (idempotency_key) DO NOTHING`,
      ),
      trim: this.db.prepare<[number]>('DELETE FROM outbox WHERE id <= ?'),
      byKey: this.db.prepare<[string], OutboxRow>(`SELECT ${columns} FROM outbox WHERE idempotency_key = ?`),
      newest: this.db.prepare<[number], OutboxRow>(`SELECT ${columns} FROM outbox ORDER BY id DESC LIMIT ?`),
      newestFor: this.db.prepare<[string, number], OutboxRow>(`SELECT ${columns} FROM outbox WHERE recipient = ? ORDER BY id DESC LIMIT ?`),
    };
  }

  /** Records a send; false (and nothing changed) when its idempotency key is already there. */
  put(message: Omit<OutboxRecord, 'id' | 'created_at'>): boolean {
    const result = this.stmts.insert.run({ ...message, recipient: outboxRecipient(message.to), created_at: this.now().toISOString() });
    if (result.changes === 0) return false;
    this.stmts.trim.run(Number(result.lastInsertRowid) - this.keep);
    return true;
  }

  get(idempotencyKey: string): OutboxRecord | null {
    const row = this.stmts.byKey.get(idempotencyKey);
    return row ? entryOf(row) : null;
  }

  list(query: { recipient?: string; limit: number }): OutboxRecord[] {
    const limit = Math.max(0, Math.floor(query.limit));
    const rows = query.recipient === undefined ? this.stmts.newest.all(limit) : this.stmts.newestFor.all(outboxRecipient(query.recipient), limit);
    return rows.map(entryOf);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}

function entryOf(row: OutboxRow): OutboxRecord {
  return { ...row, id: String(row.id) };
}

/** The outbox standing in for each channel (development only: production refuses it). */
export function createOutboxSenders(store: OutboxStore): MessageSender[] {
  return MESSAGE_CHANNELS.map((channel) => ({
    channel,
    provider: 'outbox',
    async send(message: OutgoingMessage) {
      const { message_id, idempotency_key, kind, language, to, subject, text } = message;
      store.put({ message_id, idempotency_key, channel, kind, language, to, subject, text });
      const entry = store.get(idempotency_key);
      return { provider_message_id: `outbox-${entry?.id ?? message_id}` };
    },
  }));
}
