import { parentPort } from 'node:worker_threads';
import { decryptParts, type FieldCiphertext } from './envelope';

/** One field to decrypt: its parsed ciphertext and where it lives (the authenticated context). */
export interface FieldJob extends FieldCiphertext {
  context: string;
}

/** What the worker answers per field: the plain text, or null when it does not authenticate. */
export type FieldResult = string | null;

export interface DecryptRequest {
  id: number;
  jobs: FieldJob[];
  /** Forget every key held so far first (a key was forgotten in the process, or too many are held). */
  reset: boolean;
  /** key id → the data key, for the keys these jobs name that this thread does not hold yet. */
  keys: Map<string, Uint8Array>;
}

// The body of the worker thread (see DecryptionWorker): holds the keys it was given, decrypts each job with its key.
const held = new Map<string, Buffer>();
parentPort?.on('message', ({ id, jobs, reset, keys }: DecryptRequest) => {
  if (reset) held.clear();
  for (const [keyId, key] of keys) held.set(keyId, Buffer.from(key.buffer, key.byteOffset, key.byteLength));
  const results: FieldResult[] = jobs.map((job) => {
    const key = held.get(job.k);
    if (!key) return null;
    try {
      return decryptParts(job, key, job.context);
    } catch {
      return null;
    }
  });
  parentPort!.postMessage({ id, results });
});
// Loaded and listening: the reader may now hand pages over instead of decrypting them itself.
parentPort?.postMessage('ready');
