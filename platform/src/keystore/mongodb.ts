import { Binary, MongoClient, MongoServerError, type Collection } from 'mongodb';
import { WrappedKeyStore, type KeyRow, type KeyRows } from './wrapped-key-store';
import type { MasterKeys } from './master-key';

interface KeyDocument {
  _id: string;
  key_id: string;
  master_key_id: string | null;
  wrapped: Binary | null;
  created_at: string;
  destroyed_at: string | null;
}

const COLLECTION = 'data_keys';
const DUPLICATE_KEY = 11000;

function toRow(doc: KeyDocument | null): KeyRow | null {
  if (!doc) return null;
  return {
    subject_id: doc._id,
    key_id: doc.key_id,
    master_key_id: doc.master_key_id,
    wrapped: doc.wrapped ? Buffer.from(doc.wrapped.buffer) : null,
    created_at: doc.created_at,
    destroyed_at: doc.destroyed_at,
  };
}

/** Wrapped data keys as documents keyed by subject id, with a unique index on the key id. */
class MongoKeyRows implements KeyRows {
  constructor(
    private readonly client: MongoClient | null,
    private readonly keys: Collection<KeyDocument>,
  ) {}

  async insertIfAbsent(row: KeyRow) {
    const doc: KeyDocument = {
      _id: row.subject_id,
      key_id: row.key_id,
      master_key_id: row.master_key_id,
      wrapped: row.wrapped ? new Binary(row.wrapped) : null,
      created_at: row.created_at,
      destroyed_at: row.destroyed_at,
    };
    try {
      await this.keys.updateOne({ _id: row.subject_id }, { $setOnInsert: doc }, { upsert: true });
    } catch (error) {
      // Two upserts of the same subject at once: one inserts, the other reads what it inserted.
      if (!(error instanceof MongoServerError && error.code === DUPLICATE_KEY)) throw error;
    }
    return toRow(await this.keys.findOne({ _id: row.subject_id }))!;
  }
  async bySubject(subjectId: string) {
    return toRow(await this.keys.findOne({ _id: subjectId }));
  }
  async byKeyId(keyId: string) {
    return toRow(await this.keys.findOne({ key_id: keyId }));
  }
  async byKeyIds(keyIds: readonly string[]) {
    const docs = await this.keys.find({ key_id: { $in: [...keyIds] } }).toArray();
    return docs.map((doc) => toRow(doc)!);
  }
  async destroy(tombstone: KeyRow & { destroyed_at: string }): Promise<boolean> {
    const at = tombstone.destroyed_at;
    const result = await this.keys.updateOne({ _id: tombstone.subject_id, wrapped: { $ne: null } }, { $set: { wrapped: null, master_key_id: null, destroyed_at: at } });
    if (result.modifiedCount > 0) return true;
    // No key to destroy: a tombstone, so none is created later (insertIfAbsent then finds it). A key inserted meanwhile
    // makes this upsert a no-op: destroyed again, as a create racing a destroy may end either way but never keyed.
    const inserted = await this.insertIfAbsent(tombstone);
    if (inserted.wrapped) return this.destroy(tombstone);
    return false;
  }
  async wrappedByOtherThan(masterKeyId: string, limit: number) {
    const docs = await this.keys.find({ wrapped: { $ne: null }, master_key_id: { $ne: masterKeyId } }).sort({ key_id: 1 }).limit(limit).toArray();
    return docs.map((d) => toRow(d)!);
  }
  async rewrap(keyId: string, fromMasterKeyId: string, to: { master_key_id: string; wrapped: Buffer }) {
    await this.keys.updateOne({ key_id: keyId, master_key_id: fromMasterKeyId }, { $set: { master_key_id: to.master_key_id, wrapped: new Binary(to.wrapped) } });
  }
  async countByMasterKey() {
    const groups = await this.keys
      .aggregate<{ _id: string; keys: number }>([{ $match: { wrapped: { $ne: null } } }, { $group: { _id: '$master_key_id', keys: { $sum: 1 } } }])
      .toArray();
    return groups.map((g) => ({ master_key_id: g._id, keys: g.keys }));
  }
  async close() {
    await this.client?.close();
  }
}

/** The production key store: a MongoDB collection of wrapped data keys (MONGODB_URL). */
export class MongoKeyStore extends WrappedKeyStore {
  private constructor(rows: MongoKeyRows, masters: MasterKeys, clock?: () => Date) {
    super('mongodb', rows, masters, clock);
  }

  static async connect(url: string, database: string, masters: MasterKeys, clock?: () => Date): Promise<MongoKeyStore> {
    const client = await MongoClient.connect(url);
    const keys = client.db(database).collection<KeyDocument>(COLLECTION);
    await keys.createIndex({ key_id: 1 }, { unique: true });
    await keys.createIndex({ master_key_id: 1 });
    return new MongoKeyStore(new MongoKeyRows(client, keys), masters, clock);
  }
}
