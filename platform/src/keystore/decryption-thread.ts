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
  /** key id → the data key, for the keys these jobs name. */
  keys: Map<string, Buffer>;
}

// The body of the worker thread (see DecryptionThread): decrypts each job with its key.
parentPort?.on('message', ({ id, jobs, keys }: DecryptRequest) => {
  const results: FieldResult[] = jobs.map((job) => {
    const key = keys.get(job.k);
    if (!key) return null;
    try {
      return decryptParts(job, Buffer.from(key), job.context);
    } catch {
      return null;
    }
  });
  parentPort!.postMessage({ id, results });
});
