import type { BatchStore, CollectionSource, Doc, Filter, FindOptions, CountOptions, ProjectionCheckpoint, ReadCollection, ReadStore } from './port';

/** Where each read model's current generation is kept: `{_id: collection, generation}`, in the same store. */
export const GENERATIONS = '_projection_generations';

interface GenerationDoc extends Doc {
  generation: number;
}

/** The physical name of a read model's collection in a generation: generation 0 is the plain name. */
export function physicalName(collection: string, generation: number): string {
  return generation === 0 ? collection : `${collection}__g${generation}`;
}

/** A collection whose physical name is looked up at every call, so a handle taken before a switch-over follows it. */
function routedCollection<T extends Doc>(resolve: () => Promise<ReadCollection<T>>): ReadCollection<T> {
  return {
    get: async (id) => (await resolve()).get(id),
    find: async (filter?: Filter, options?: FindOptions) => (await resolve()).find(filter, options),
    count: async (filter?: Filter, options?: CountOptions) => (await resolve()).count(filter, options),
    put: async (doc) => (await resolve()).put(doc),
    patch: async (id, fields) => (await resolve()).patch(id, fields),
    delete: async (id) => (await resolve()).delete(id),
  };
}

/**
 * A read store whose collections are named through a generation per read model (DESIGN.md §5): a rebuild writes
 * generation n+1 beside the live generation n, then one commit switches the names and the projection's checkpoint
 * together, and the old collections are dropped after. Every reader (routes, lookups, other replicas) asks for the
 * plain name and gets the current generation; a process that did not make the switch reloads the map at most
 * `refreshMs` after it.
 */
export class GenerationalReadStore implements ReadStore {
  private generations = new Map<string, number>();
  private loadedAt = -Infinity;
  private loading: Promise<void> | null = null;

  constructor(
    readonly inner: ReadStore,
    private readonly options: { refreshMs?: number; now?: () => number } = {},
  ) {}

  private now(): number {
    return (this.options.now ?? performance.now.bind(performance))();
  }

  /** Reads the generations from the store (once at start, then at most every `refreshMs`). */
  async load(): Promise<void> {
    this.loading ??= (async () => {
      const docs = await this.inner.collection<GenerationDoc>(GENERATIONS).find({});
      this.generations = new Map(docs.map((d) => [d._id, d.generation]));
      this.loadedAt = this.now();
    })().finally(() => (this.loading = null));
    return this.loading;
  }

  private async current(name: string): Promise<string> {
    if (this.now() - this.loadedAt > (this.options.refreshMs ?? 1000)) await this.load();
    return physicalName(name, this.generations.get(name) ?? 0);
  }

  generationOf(collection: string): number {
    return this.generations.get(collection) ?? 0;
  }

  collection<T extends Doc>(name: string): ReadCollection<T> {
    return routedCollection(async () => this.inner.collection<T>(await this.current(name)));
  }

  async ensureIndex(collection: string, field: string): Promise<void> {
    await this.inner.ensureIndex(physicalName(collection, this.generationOf(collection)), field);
  }

  async ensureCompoundIndex(collection: string, fields: readonly string[]): Promise<void> {
    const name = physicalName(collection, this.generationOf(collection));
    if (this.inner.ensureCompoundIndex) await this.inner.ensureCompoundIndex(name, fields);
    else if (fields.length > 0) await this.inner.ensureIndex(name, fields[0]!);
  }

  getCheckpoint(projection: string): Promise<ProjectionCheckpoint | null> {
    return this.inner.getCheckpoint(projection);
  }

  setCheckpoint(checkpoint: ProjectionCheckpoint): Promise<void> {
    return this.inner.setCheckpoint(checkpoint);
  }

  /** A batch on the current generations (the projector is the process that switches, so its map is current). */
  beginBatch(options?: { bulk?: boolean }): BatchStore {
    return this.batchWith(new Map(), options);
  }

  /**
   * A batch whose given collections are written under other physical names (a rebuild's new generation); any other
   * collection a projection reads goes to its current generation.
   */
  batchWith(overrides: Map<string, string>, options?: { bulk?: boolean }): BatchStore {
    const batch = this.inner.beginBatch(options);
    return {
      collection: <T extends Doc>(name: string) => batch.collection<T>(overrides.get(name) ?? physicalName(name, this.generationOf(name))),
      commit: (checkpoints) => batch.commit(checkpoints),
    };
  }

  /** A view of the store with some collections read from other physical names (to check a new generation). */
  view(overrides: Map<string, string>): CollectionSource {
    return { collection: <T extends Doc>(name: string) => this.inner.collection<T>(overrides.get(name) ?? physicalName(name, this.generationOf(name))) };
  }

  /**
   * The switch-over: the collections' new generation and the projection's checkpoint in one commit (one transaction
   * on SQLite, and on MongoDB with a replica set), then this process's map. Returns the physical names retired.
   */
  async switchGeneration(collections: readonly string[], generation: number, checkpoint: ProjectionCheckpoint): Promise<string[]> {
    const retired = collections.map((c) => physicalName(c, this.generationOf(c)));
    const batch = this.inner.beginBatch();
    const docs = batch.collection<GenerationDoc>(GENERATIONS);
    for (const c of collections) await docs.put({ _id: c, generation });
    await batch.commit([checkpoint]);
    for (const c of collections) this.generations.set(c, generation);
    return retired;
  }

  /** Drops the generations before the current one of every switched collection (a stop before their drop was due). */
  async dropRetired(): Promise<void> {
    for (const [collection, generation] of this.generations) {
      await this.dropPhysical(Array.from({ length: generation }, (_, g) => physicalName(collection, g)));
    }
  }

  /** Drops physical collections (a retired or abandoned generation); no checkpoint is touched. */
  async dropPhysical(names: readonly string[]): Promise<void> {
    if (this.inner.dropGradually) await this.inner.dropGradually([...names]);
    else await this.inner.drop(`${GENERATIONS}:none`, [...names]);
  }

  async settle(): Promise<void> {
    await this.inner.settle?.();
  }

  async scrub(): Promise<void> {
    await this.inner.scrub?.();
  }

  /** Removes the current generation of these collections and the projection's checkpoint (an in-place rebuild). */
  async drop(projection: string, collections: string[]): Promise<void> {
    await this.inner.drop(
      projection,
      collections.map((c) => physicalName(c, this.generationOf(c))),
    );
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
