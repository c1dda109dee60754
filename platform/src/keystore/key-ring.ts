import { SubjectErasedError, type KeyStore } from './port';
import type { KeyById, KeyForSubject } from './event-envelope';
import { Lru } from '../lru';

interface CachedKey {
  key_id: string;
  subject_id: string;
  key: Buffer;
}

/** How many unwrapped data keys a process keeps (about 100 bytes each). */
export const KEY_CACHE_LIMIT = 10_000;

/**
 * The key store's lookups with a bounded cache of unwrapped data keys, so a rebuild or a busy booking path does not
 * unwrap a key per event. A destroyed key is remembered as destroyed (it never comes back). `destroy` crypto-shreds
 * a subject and drops its cached key; `forget` drops it when another process destroyed it (the reader saw the
 * subject's PersonalDataErased).
 */
export class KeyRing {
  private readonly byKeyId: Lru<string, CachedKey | null>;
  private readonly bySubject: Lru<string, CachedKey>;
  /** Lookups in flight, so concurrent first uses unwrap (or create) a key once. */
  private readonly pending = new Map<string, Promise<CachedKey | null>>();

  constructor(
    readonly store: KeyStore,
    limit = KEY_CACHE_LIMIT,
  ) {
    this.byKeyId = new Lru(limit);
    this.bySubject = new Lru(limit);
  }

  /** The subject's data key for encrypting (created on first use), or null when the subject was erased. */
  readonly keyFor: KeyForSubject = async (subjectId) => {
    const cached = this.bySubject.get(subjectId);
    if (cached) return cached;
    return this.once(`s:${subjectId}`, () =>
      this.unlessForgottenMeanwhile(async () => {
        try {
          return await this.store.create(subjectId);
        } catch (error) {
          if (error instanceof SubjectErasedError) return null;
          throw error;
        }
      }),
    );
  };

  /** The cached data key with this id (null: known destroyed), or undefined when the cache does not know it. */
  readonly cachedKeyById = (keyId: string): Buffer | null | undefined => {
    const cached = this.byKeyId.get(keyId);
    return cached === undefined ? undefined : (cached?.key ?? null);
  };

  /** The data key written next to a ciphertext, or null when it was destroyed. */
  readonly keyById: KeyById = async (keyId) => {
    const cached = this.byKeyId.get(keyId);
    if (cached !== undefined) return cached?.key ?? null;
    const found = await this.once(`k:${keyId}`, async () => {
      const key = await this.unlessForgottenMeanwhile(() => this.store.getByKeyId(keyId));
      if (!key) this.byKeyId.set(keyId, null);
      return key;
    });
    return found?.key ?? null;
  };

  /**
   * The data keys with these ids (null: destroyed or unknown), those the cache does not hold looked up at once: a
   * reader meeting a page of people it has not met asks the store once, not once per person.
   */
  async keysById(keyIds: Iterable<string>): Promise<Map<string, Buffer | null>> {
    const found = new Map<string, Buffer | null>();
    const missing: string[] = [];
    for (const keyId of keyIds) {
      if (found.has(keyId)) continue;
      const cached = this.cachedKeyById(keyId);
      if (cached === undefined) missing.push(keyId);
      found.set(keyId, cached ?? null);
    }
    if (missing.length === 0) return found;
    for (;;) {
      const before = this.forgotten;
      const keys = await this.store.getByKeyIds(missing);
      if (this.forgotten !== before) continue; // see unlessForgottenMeanwhile
      for (const key of keys) found.set(key.key_id, this.remember(key).key);
      for (const keyId of missing) if (found.get(keyId) === null) this.byKeyId.set(keyId, null);
      return found;
    }
  }

  /** Crypto-shreds the subject: the key store destroys its data key and this process forgets it. */
  async destroy(subjectId: string): Promise<boolean> {
    this.forget(subjectId);
    const destroyed = await this.store.destroy(subjectId);
    this.forget(subjectId);
    return destroyed;
  }

  /** Drops the subject's cached key (its key was destroyed, here or in another process). */
  forget(subjectId: string): void {
    this.forgotten += 1;
    this.bySubject.delete(subjectId);
    this.byKeyId.deleteWhere((cached) => cached?.subject_id === subjectId);
  }

  /** Counts keys forgotten or destroyed: a cache of anything decrypted before is stale once it moves. */
  forgotten = 0;

  get cachedKeys(): number {
    return this.byKeyId.size;
  }

  close(): Promise<void> {
    return this.store.close();
  }

  /**
   * Looks a key up and remembers it, unless a key was forgotten or destroyed while the lookup ran: it may have read this
   * very key just before its destruction, and a key handed out (or cached) after it would encrypt new data under a
   * destroyed key, or read again what was erased. Then it looks again, and finds the tombstone.
   */
  private async unlessForgottenMeanwhile(load: () => Promise<{ key_id: string; subject_id: string; key: Buffer } | null>): Promise<CachedKey | null> {
    for (;;) {
      const before = this.forgotten;
      const key = await load();
      if (this.forgotten !== before) continue;
      return key ? this.remember(key) : null;
    }
  }

  private remember(key: { key_id: string; subject_id: string; key: Buffer }): CachedKey {
    const cached = { key_id: key.key_id, subject_id: key.subject_id, key: key.key };
    this.byKeyId.set(key.key_id, cached);
    this.bySubject.set(key.subject_id, cached);
    return cached;
  }

  private once(id: string, load: () => Promise<CachedKey | null>): Promise<CachedKey | null> {
    let running = this.pending.get(id);
    if (!running) {
      running = load().finally(() => this.pending.delete(id));
      this.pending.set(id, running);
    }
    return running;
  }
}
