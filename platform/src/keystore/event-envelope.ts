import { erasedValueOf, openedValue, personalFieldRules, personalFieldTargets, sealedText, type EventType, type StreamParties } from '@telemed/contracts';
import { decryptParts, encryptField, fieldContext, parseCiphertext } from './envelope';
import { SubjectErasedError, type KeyStore } from './port';

/** The data key to encrypt a subject's fields with (created on first use), or null when the subject was erased. */
export type KeyForSubject = (subjectId: string) => Promise<{ key_id: string; key: Buffer } | null>;
/** The data key with this id, or null when it was destroyed (or never existed here). */
export type KeyById = (keyId: string) => Promise<Buffer | null>;

export { fieldContext };

/**
 * The event's data with every personal field (contracts' PERSONAL_FIELDS) encrypted under its person's key.
 * Validate the plain data with its zod schema first: ciphertexts are strings, so string fields keep their schema.
 * A field of an erased person (no key any more) is never stored again: with `whenErased` 'refuse' (the default) the
 * call throws SubjectErasedError, with 'blank' the field is written as ERASED_VALUE (a JSON field as its erased value).
 * A JSON field (PersonalFieldRule.json) is sealed as its JSON text.
 */
export async function encryptEventData<D extends object>(
  type: EventType,
  data: D,
  keyFor: KeyForSubject,
  parties: StreamParties = {},
  whenErased: 'refuse' | 'blank' = 'refuse',
): Promise<D> {
  const targets = personalFieldTargets(type, data, parties);
  if (targets.length === 0) return data;
  const out: Record<string, unknown> = { ...(data as Record<string, unknown>) };
  for (const { field, subject_id } of targets) {
    const found = await keyFor(subject_id);
    if (!found && whenErased === 'refuse') throw new SubjectErasedError(subject_id);
    out[field] = found ? encryptField(sealedText(type, field, out[field]), found.key, found.key_id, fieldContext(type, field)) : erasedValueOf(type, field);
  }
  return out as D;
}

/**
 * The event's data with its personal fields in clear. A field whose key was destroyed reads as ERASED_VALUE (a JSON
 * field as its erased value, of its shape) and is
 * listed in `erased` (never an exception: an erased person's events still fold and project). A plain value (written
 * before encryption) passes through. An altered ciphertext throws EnvelopeError.
 */
export async function decryptEventData<D extends object>(
  type: EventType,
  data: D,
  keyById: KeyById,
  /** A synchronous look into a cache of keys: undefined when it does not know the key (then keyById is awaited). */
  cachedKeyById?: (keyId: string) => Buffer | null | undefined,
  /** Which fields to open (the others are left as they are); all of them when absent. */
  opens?: (type: EventType, field: string) => boolean,
): Promise<{ data: D; erased: string[] }> {
  const erased: string[] = [];
  let out: Record<string, unknown> | null = null;
  for (const rule of personalFieldRules(type)) {
    for (const field of rule.fields) {
      if (opens && !opens(type, field)) continue;
      const value = (data as Record<string, unknown>)[field];
      const parts = typeof value === 'string' ? parseCiphertext(value) : null;
      if (!parts) continue;
      const copy: Record<string, unknown> = (out ??= { ...(data as Record<string, unknown>) });
      // A rebuild decrypts a field every few events: no promise per field when the key is cached.
      const cached = cachedKeyById?.(parts.k);
      const key = cached === undefined ? await keyById(parts.k) : cached;
      if (key) copy[field] = openedValue(type, field, decryptParts(parts, key, fieldContext(type, field)));
      else {
        copy[field] = erasedValueOf(type, field);
        erased.push(field);
      }
    }
  }
  return { data: (out ?? data) as D, erased };
}

/** Both lookups from a KeyStore. */
export function keyLookups(keyStore: KeyStore): { keyFor: KeyForSubject; keyById: KeyById } {
  return {
    keyFor: async (subjectId) => {
      try {
        return await keyStore.create(subjectId);
      } catch (error) {
        if (error instanceof SubjectErasedError) return null;
        throw error;
      }
    },
    keyById: async (keyId) => (await keyStore.getByKeyId(keyId))?.key ?? null,
  };
}
