import { createHmac, hkdfSync } from 'node:crypto';
import type { EventStore } from '../event-store/port';
import { keyRingOf } from './encrypting-event-store';
import type { KeyStore } from './port';

/**
 * The key-store subject whose data key keys the digests that stand for personal values in stream names and event
 * fields (an e-mail address's claim, a reader's view of a post). No person's, never erased. Kept in the key store
 * rather than derived from DATA_MASTER_KEY: a rotation re-wraps it like any data key, where a key derived from the
 * master key would change every name (and forget every claim) once the previous master key is unset.
 */
export const PRIVATE_NAMES_SUBJECT = '#private-names';

/** What a digest is for: each purpose has a subkey of its own, so digests of one never match another's. */
export type PrivateNamePurpose = 'email claim' | 'blog view' | 'phone claim' | 'phone code' | 'client address';

const subkeys = new WeakMap<KeyStore, Map<PrivateNamePurpose, Promise<Buffer>>>();

function subkey(store: KeyStore, purpose: PrivateNamePurpose): Promise<Buffer> {
  let byPurpose = subkeys.get(store);
  if (!byPurpose) subkeys.set(store, (byPurpose = new Map()));
  let key = byPurpose.get(purpose);
  if (!key) {
    key = store.create(PRIVATE_NAMES_SUBJECT).then((dataKey) => Buffer.from(hkdfSync('sha256', dataKey.key, Buffer.alloc(0), `telemed private name: ${purpose}`, 32)));
    // A failed look-up (the key store unreachable) is tried again next time, not remembered.
    key.catch(() => byPurpose.delete(purpose));
    byPurpose.set(purpose, key);
  }
  return key;
}

/**
 * HMAC-SHA-256 (hex) of `value` under the purpose's subkey: whoever holds the log but not the key store can neither
 * test a guess against it nor link it to anything. Null when the store keeps no keys (a log without encryption, which
 * holds every personal value in clear anyway: the caller names things as before).
 */
export async function privateDigest(eventStore: EventStore, purpose: PrivateNamePurpose, value: string): Promise<string | null> {
  const keys = keyRingOf(eventStore);
  if (!keys) return null;
  return createHmac('sha256', await subkey(keys.store, purpose)).update(value).digest('hex');
}
