import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { EncryptingEventStore, KeyRing, MemoryKeyStore, MemoryReadStore, generateMasterKeyText, parseMasterKey, type EventStore } from '@telemed/platform';
import { ProjectionRunner, allProjections } from '@telemed/query';
import { appointmentThroughput } from './http-appointments';
import { buildHistoryLog } from './history-log';

/**
 * What per-person encryption costs, each side measured in the same run on the same work:
 * - booking: request + approve over HTTP against the product as `npm start` runs it, and against the same product
 *   whose event store passes events through unencrypted (bench/src/product-without-encryption.ts);
 * - rebuild: the projections over a log whose personal fields are ciphertext, read through the decrypting store,
 *   and the same log read as stored (ciphertext handed to the projections as the strings they are).
 */
export async function bookingWithAndWithoutEncryption(work: string, options: { pairs: number; clients: number; doctors: number }) {
  const encrypted = await appointmentThroughput(mkdtempSync(join(work, 'enc-')), options);
  const plain = await appointmentThroughput(mkdtempSync(join(work, 'plain-')), options, 'bench/src/product-without-encryption.ts');
  return { encrypted, plain };
}

export async function rebuildWithAndWithoutDecryption(work: string, events: number, runs: number) {
  const keyStore = new MemoryKeyStore({ current: parseMasterKey(generateMasterKeyText()), previous: [] });
  const file = join(mkdtempSync(join(work, 'rebuild-enc-')), 'events.db');
  const { store } = await buildHistoryLog(file, events, { appendThrough: (log) => new EncryptingEventStore(log, new KeyRing(keyStore)) });
  const rate = async (eventStore: EventStore) => {
    const runner = new ProjectionRunner({ eventStore, readStore: new MemoryReadStore(), projections: allProjections });
    const started = performance.now();
    const count = await runner.catchUp();
    return count / ((performance.now() - started) / 1000);
  };
  const decrypted: number[] = [];
  const asStored: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    // Each decrypting run as a rebuild in a new process meets it: its own key ring (every key unwrapped again) and its
    // own decryption thread. The two sides take turns going first, so neither always runs on a warmer machine.
    const decrypt = async () => {
      const decrypting = new EncryptingEventStore(withoutClose(store), new KeyRing(keyStore));
      await decrypting.prepareForHistory(); // as the product's openEventStore does
      decrypted.push(await rate(decrypting));
      // Stops its decryption thread (an open one keeps the process alive); the log itself stays open for the next run.
      await decrypting.close();
    };
    const plain = async () => asStored.push(await rate(store));
    if (i % 2 === 0) {
      await plain();
      await decrypt();
    } else {
      await decrypt();
      await plain();
    }
  }
  await store.close();
  return { decrypted, asStored };
}

/** The store with a close that does nothing: each run's decrypting store closes what is its own, not the shared log. */
function withoutClose(store: EventStore): EventStore {
  return new Proxy(store, {
    get(target, key, receiver) {
      if (key === 'close') return async () => undefined;
      const value: unknown = Reflect.get(target, key, receiver);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
