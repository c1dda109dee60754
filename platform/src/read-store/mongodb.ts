import { MongoClient, type Db, type Document, type Filter as MongoFilter, type Sort } from 'mongodb';
import type { CheckpointStore } from '../event-store/port';
import type { Doc, Filter, FindOptions, ProjectionCheckpoint, ReadCollection, ReadStore } from './port';

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
    // _id last, as in the embedded store, so equal keys come back in a stable order.
    if (options.sort) cursor = cursor.sort({ ...options.sort, _id: 1 } as Sort);
    if (options.skip) cursor = cursor.skip(options.skip);
    if (options.limit !== undefined) cursor = cursor.limit(options.limit);
    return (await cursor.toArray()) as unknown as T[];
  }

  async count(filter: Filter = {}): Promise<number> {
    return this.collection.countDocuments(filter as MongoFilter<StringIdDocument>);
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
    await this.db.collection(collection).createIndex({ [field]: 1 });
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
