import { MongoClient, type Db, type Document, type Filter as MongoFilter, type Sort } from 'mongodb';
import type { CheckpointStore } from '../event-store/port';
import type { BatchStore, Doc, Filter, FindOptions, CountOptions, ProjectionCheckpoint, ReadCollection, ReadStore, WriteOp } from './port';
import { BufferedBatch } from './buffered-batch';
import { idDirection } from './sort';

const CHECKPOINTS = '_projection_checkpoints';
const SUBSCRIBER_CHECKPOINTS = '_subscriber_checkpoints';

/** Read-model documents use string ids (not ObjectIds). */
type StringIdDocument = Document & { _id: string };

class MongoCollection<T extends Doc> implements ReadCollection<T> {
  constructor(private readonly db: Db, private readonly name: string) {}

  private get collection() {
    return this.db.collection<StringIdDocument>(this.name);
  }

  async get(id: string): Promise<T | null> {
    return (await this.collection.findOne({ _id: id })) as unknown as T | null;
  }

  async find(filter: Filter = {}, options: FindOptions = {}): Promise<T[]> {
    let cursor = this.collection.find(filter as MongoFilter<StringIdDocument>);
    // _id last when the sort does not name it, as in the embedded store, so equal keys come back in a stable order; in
    // the last key's direction, so an index that ends in _id serves the sort read forwards or backwards.
    if (options.sort) cursor = cursor.sort(('_id' in options.sort ? options.sort : { ...options.sort, _id: idDirection(options.sort) }) as Sort);
    if (options.skip) cursor = cursor.skip(options.skip);
    if (options.limit !== undefined) cursor = cursor.limit(options.limit);
    return (await cursor.toArray()) as unknown as T[];
  }

  async count(filter: Filter = {}, options: CountOptions = {}): Promise<number> {
    return this.collection.countDocuments(filter as MongoFilter<StringIdDocument>, options.limit === undefined ? {} : { limit: options.limit });
  }

  async put(doc: T): Promise<void> {
    await this.collection.replaceOne({ _id: doc._id }, doc as unknown as StringIdDocument, { upsert: true });
  }

  async patch(id: string, fields: Partial<T>): Promise<void> {
    const { _id: _ignored, ...set } = fields as Record<string, unknown>;
    void _ignored;
    if (Object.keys(set).length === 0) return;
    await this.collection.updateOne({ _id: id }, { $set: set });
  }

  async delete(id: string): Promise<void> {
    await this.collection.deleteOne({ _id: id });
  }
}

/**
 * Read store on MongoDB: a collection per read model, indexes declared by the projections, checkpoints in their own
 * collection. A checkpoint is written after the documents of its batch, so a crash between the two re-applies
 * events that projections apply idempotently (replace by id, set fields).
 */
export class MongoReadStore implements ReadStore, CheckpointStore {
  private constructor(private readonly client: MongoClient, private readonly db: Db) {}

  static async connect(url: string, database = 'telemed'): Promise<MongoReadStore> {
    const client = new MongoClient(url);
    await client.connect();
    return new MongoReadStore(client, client.db(database));
  }

  collection<T extends Doc>(name: string): ReadCollection<T> {
    return new MongoCollection<T>(this.db, name);
  }

  async ensureIndex(collection: string, field: string): Promise<void> {
    await this.ensureCompoundIndex(collection, [field]);
  }

  /**
   * Each index ends in _id (unless it names it): every sort ends in _id (see find), and MongoDB serves a sort from an
   * index only when the index holds every key of it; without _id each page of a sorted list would sort every match.
   */
  async ensureCompoundIndex(collection: string, fields: readonly string[]): Promise<void> {
    const keys = fields.includes('_id') ? fields : [...fields, '_id'];
    await this.db.collection(collection).createIndex(Object.fromEntries(keys.map((f) => [f, 1])));
  }

  async getCheckpoint(projection: string): Promise<ProjectionCheckpoint | null> {
    const doc = await this.db.collection<{ _id: string; version: number; position: number }>(CHECKPOINTS).findOne({ _id: projection });
    return doc ? { name: doc._id, version: doc.version, position: doc.position } : null;
  }

  async setCheckpoint(checkpoint: ProjectionCheckpoint): Promise<void> {
    await this.db
      .collection<{ _id: string; version: number; position: number }>(CHECKPOINTS)
      .replaceOne({ _id: checkpoint.name }, { version: checkpoint.version, position: checkpoint.position }, { upsert: true });
  }

  beginBatch(): BatchStore {
    return new BufferedBatch(this, (ops, checkpoints) => this.commitBatch(ops, checkpoints));
  }

  private transactions = true;

  /**
   * One bulk write per collection and the checkpoints, inside a transaction (MongoDB needs a replica set for that,
   * as in the Compose file). Without one, the documents are written first and the checkpoints last: a crash in
   * between re-applies events, which projections do idempotently.
   */
  private async commitBatch(ops: WriteOp[], checkpoints: ProjectionCheckpoint[]): Promise<void> {
    const write = async (session?: import('mongodb').ClientSession) => {
      const byCollection = new Map<string, WriteOp[]>();
      for (const op of ops) byCollection.set(op.collection, [...(byCollection.get(op.collection) ?? []), op]);
      for (const [name, collectionOps] of byCollection) {
        await this.db.collection<StringIdDocument>(name).bulkWrite(
          collectionOps.map((op) =>
            op.kind === 'put'
              ? { replaceOne: { filter: { _id: op.doc._id }, replacement: op.doc as unknown as StringIdDocument, upsert: true } }
              : { deleteOne: { filter: { _id: op.id } } },
          ),
          { session, ordered: true },
        );
      }
      if (checkpoints.length > 0) {
        await this.db.collection<{ _id: string; version: number; position: number }>(CHECKPOINTS).bulkWrite(
          checkpoints.map((c) => ({ replaceOne: { filter: { _id: c.name }, replacement: { version: c.version, position: c.position }, upsert: true } })),
          { session },
        );
      }
    };
    if (this.transactions) {
      const session = this.client.startSession();
      try {
        await session.withTransaction(() => write(session));
        return;
      } catch (error) {
        // Standalone servers refuse transactions (IllegalOperation, code 20); anything else is a real failure.
        if ((error as { code?: number }).code !== 20) throw error;
        this.transactions = false;
      } finally {
        await session.endSession();
      }
    }
    await write();
  }

  async drop(projection: string, collections: string[]): Promise<void> {
    for (const name of collections) await this.db.collection(name).drop().catch(() => false);
    await this.db.collection<{ _id: string }>(CHECKPOINTS).deleteOne({ _id: projection });
  }

  /** Checkpoints of the relay and the process managers (the CheckpointStore port). */
  async load(name: string): Promise<number> {
    return (await this.db.collection<{ _id: string; position: number }>(SUBSCRIBER_CHECKPOINTS).findOne({ _id: name }))?.position ?? 0;
  }

  async save(name: string, position: number): Promise<void> {
    await this.db.collection<{ _id: string; position: number }>(SUBSCRIBER_CHECKPOINTS).replaceOne({ _id: name }, { position }, { upsert: true });
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}
