import { erasedValueOf, isEventType, sealedInReadModels } from '@telemed/contracts';
import { decryptParts, fieldContext, parseCiphertext } from './envelope';
import type { KeyRing } from './key-ring';

/**
 * A field that read models keep sealed (contracts' sealedInReadModels), opened to be served: `value` as the projection
 * stored it from the event's `field` of type `type`. A ciphertext is decrypted under its key; one whose key was
 * destroyed reads as erased, as it would from the log. Anything else (a plain value written before encryption, the
 * erased value an erasure's projection wrote, null) is served as it is. An altered ciphertext throws EnvelopeError.
 */
export async function openSealedField(keys: KeyRing, type: string, field: string, value: unknown): Promise<unknown> {
  if (typeof value !== 'string' || !isEventType(type) || !sealedInReadModels(type).has(field)) return value;
  const parts = parseCiphertext(value);
  if (!parts) return value;
  const cached = keys.cachedKeyById(parts.k);
  const key = cached === undefined ? await keys.keyById(parts.k) : cached;
  if (!key) return erasedValueOf(type, field);
  return decryptParts(parts, key, fieldContext(type, field));
}

