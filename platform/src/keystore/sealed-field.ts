import { isEventType, sealedInReadModels } from '@telemed/contracts';
import { decryptEventData } from './event-envelope';
import type { KeyRing } from './key-ring';

/**
 * A field that read models keep sealed (contracts' sealedInReadModels), opened to be served: `value` as the projection
 * stored it from the event's `field` of type `type`, opened as a read of the log opens it (decryptEventData): a
 * ciphertext whose key was destroyed reads as erased; anything else (a plain value written before encryption, the
 * erased value an erasure's projection wrote, null) is served as it is. An altered ciphertext throws EnvelopeError.
 */
export async function openSealedField(keys: KeyRing, type: string, field: string, value: unknown): Promise<unknown> {
  if (typeof value !== 'string' || !isEventType(type) || !sealedInReadModels(type).has(field)) return value;
  const { data } = await decryptEventData(type, { [field]: value }, keys.keyById, keys.cachedKeyById, (_type, name) => name === field);
  return data[field];
}
