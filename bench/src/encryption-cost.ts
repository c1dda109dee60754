import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { EncryptingEventStore, KeyRing, MemoryReadStore, SqliteEventStore, SqliteKeyStore, generateMasterKeyText, parseMasterKey, type EventStore } from '@telemed/platform';
import { ProjectionRunner, allProjections } from '@telemed/query';
import { appointmentThroughput } from './http-appointments';
import { fromCollectedHeap } from './collected-heap';
import { buildHistoryLog } from './history-log';

/**
 * What per-person encryption costs, each side measured in the same run on the same work:
 * - booking: request + approve over HTTP against the product as `npm start` runs it, and against the same product
 *   whose event store passes events through unencrypted (bench/src/product-without-encryption.ts);
 * - rebuild: the projections over a log whose personal fields are ciphertext, read through the decrypting store as
 *   the product's runner reads it (forReadModels: names and contact details opened, a visit's reason and the
 *   rejection reasons left sealed for the query side to open when it serves them), and the same log read as stored
 *   (ciphertext handed to the projections as the strings they are).
 */
export async function bookingWithAndWithoutEncryption(work: string, options: { pairs: number; clients: number; doctors: number }) {
  const encrypted = await appointmentThroughput(mkdtempSync(join(work, 'enc-')), options);
  const plain = await appointmentThroughput(mkdtempSync(join(work, 'plain-')), options, 'bench/src/product-without-encryption.ts');
  return { encrypted, plain };
}

export async function rebuildWithAndWithoutDecryption(work: string, events: number, runs: number) {
  const dir = mkdtempSync(join(work, 'rebuild-enc-'));
  // The key store `npm start` uses: wrapped keys in a SQLite file of their own, unwrapped by the master key.
  const masters = { current: parseMasterKey(generateMasterKeyText()), previous: [] };
  const openKeys = () => new SqliteKeyStore({ filename: join(dir, 'keys.db'), masters });
  const keyStore = openKeys();
  const file = join(dir, 'events.db');
  const built = await buildHistoryLog(file, events, { appendThrough: (log) => new EncryptingEventStore(log, new KeyRing(keyStore)) });
  await built.store.close();
  await keyStore.close();
  const rate = async (eventStore: EventStore) => {
    const runner = new ProjectionRunner({ eventStore, readStore: new MemoryReadStore(), projections: allProjections });
    fromCollectedHeap();
    const started = performance.now();
    const count = await runner.catchUp();
    return count / ((performance.now() - started) / 1000);
  };
  const decrypted: number[] = [];
  const asStored: number[] = [];
  // Each run of either side as a rebuild in a new process meets it, after the product's openEventStore: the log opened
  // anew, its reading thread started and answering before the clock starts; the decrypting side with its own key ring
  // and key store (every key read and unwrapped again). The two sides take turns going first, so neither always runs
  // on a warmer machine.
  const open = () => new SqliteEventStore({ filename: file, synchronous: 'NORMAL' });
  const decrypt = async (rates: number[] = decrypted) => {
    const decrypting = new EncryptingEventStore(open(), new KeyRing(openKeys()));
    await decrypting.readAheadOnThread();
    rates.push(await rate(decrypting));
    await decrypting.close();
  };
  const plain = async (rates: number[] = asStored) => {
    const store = open();
    await store.readAheadOnThread();
    rates.push(await rate(store));
    await store.close();
  };
  // One of each first, not counted: the JIT compiles the projections during the first rebuild of the process, which
  // would otherwise always fall on the side that goes first.
  await plain([]);
  await decrypt([]);
  for (let i = 0; i < runs; i += 1) {
    if (i % 2 === 0) {
      await plain();
      await decrypt();
    } else {
      await decrypt();
      await plain();
    }
  }
  return { decrypted, asStored };
}
