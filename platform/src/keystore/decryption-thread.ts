import { parentPort } from 'node:worker_threads';
import { decryptParts, parseCiphertext } from './envelope';

/**
 * What the worker answers per field: the plain text; null when it does not authenticate (or its key was not sent);
 * false when the text is not a ciphertext after all (a plain value from before encryption: the reader keeps it).
 */
export type FieldResult = string | null | false;

export interface DecryptRequest {
  id: number;
  /** The fields' texts as stored, and where each lives (the authenticated context), in the same order. */
  texts: string[];
  contexts: string[];
  /** Forget every key held so far first (a key was forgotten in the process, or too many are held). */
  reset: boolean;
  /** key id → the data key, for the keys these texts name that this thread does not hold yet. */
  keys: Map<string, Uint8Array>;
}

// The body of the worker thread (see DecryptionWorker): holds the keys it was given, parses and decrypts each text.
const held = new Map<string, Buffer>();
parentPort?.on('message', ({ id, texts, contexts, reset, keys }: DecryptRequest) => {
  if (reset) held.clear();
  for (const [keyId, key] of keys) held.set(keyId, Buffer.from(key.buffer, key.byteOffset, key.byteLength));
  const results: FieldResult[] = new Array<FieldResult>(texts.length);
  for (let i = 0; i < texts.length; i += 1) {
    const parts = parseCiphertext(texts[i]!);
    const key = parts ? held.get(parts.k) : undefined;
    if (!parts) results[i] = false;
    else if (!key) results[i] = null;
    else {
      try {
        results[i] = decryptParts(parts, key, contexts[i]);
      } catch {
        results[i] = null;
      }
    }
  }
  parentPort!.postMessage({ id, results });
});
// Loaded and listening: the reader may now hand pages over instead of decrypting them itself.
parentPort?.postMessage('ready');
