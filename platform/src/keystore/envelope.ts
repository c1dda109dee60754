import { createCipheriv, createDecipheriv, randomBytes, type KeyObject } from 'node:crypto';

/**
 * Envelope encryption of one field: AES-256-GCM under a person's data key, with a fresh 96-bit IV each time. The
 * result is one compact string, `enc1.<keyId>.<iv>.<ct>.<tag>` (base64url), so a field that held a string still
 * holds a string and the event keeps its schema. Pure: no I/O besides node:crypto.
 */
export interface FieldCiphertext {
  /** The data key's id (never the key). */
  k: string;
  iv: string;
  ct: string;
  tag: string;
}

export const ENVELOPE_VERSION = 'enc1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_ID = /^[A-Za-z0-9_-]{1,100}$/;
const B64URL = '[A-Za-z0-9_-]';
const FORMAT = new RegExp(`^${ENVELOPE_VERSION}\\.([A-Za-z0-9_-]{1,100})\\.(${B64URL}{16})\\.(${B64URL}*)\\.(${B64URL}{22})$`);

/** Where a field's ciphertext lives (`AppointmentRequested.notes`): part of what it authenticates. */
export const fieldContext = (type: string, field: string) => `${type}.${field}`;

export class EnvelopeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EnvelopeError';
  }
}

/** Binds a ciphertext to its key id and, when given, to where it lives (`AppointmentRequested.notes`): moved elsewhere, it does not decrypt. */
const aad = (keyId: string, context: string) => Buffer.from(`${ENVELOPE_VERSION}\0${keyId}\0${context}`);

export function encryptField(value: string, key: Buffer, keyId: string, context = ''): string {
  if (key.length !== 32) throw new EnvelopeError('A data key has 32 bytes');
  if (!KEY_ID.test(keyId)) throw new EnvelopeError('A key id is 1 to 100 letters, digits, - or _');
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(aad(keyId, context));
  const ct = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
  return [ENVELOPE_VERSION, keyId, iv.toString('base64url'), ct.toString('base64url'), cipher.getAuthTag().toString('base64url')].join('.');
}

/** The parts of a ciphertext, or null when the text is not one (a plain value from before encryption). */
export function parseCiphertext(text: string): FieldCiphertext | null {
  const match = FORMAT.exec(text);
  return match ? { k: match[1]!, iv: match[2]!, ct: match[3]!, tag: match[4]! } : null;
}

const PREFIX = `${ENVELOPE_VERSION}.`;

/**
 * The key id a text names if it looks like a ciphertext, read without checking the rest (the side that decrypts it
 * checks it all with parseCiphertext), or null. For a reader that only needs to find the key.
 */
export function keyIdOf(text: string): string | null {
  if (!text.startsWith(PREFIX)) return null;
  const end = text.indexOf('.', PREFIX.length);
  return end > PREFIX.length ? text.slice(PREFIX.length, end) : null;
}

export function isCiphertext(value: unknown): value is string {
  return typeof value === 'string' && parseCiphertext(value) !== null;
}

/** The plain value; throws EnvelopeError when the text is not a ciphertext or was altered, or the key or context is wrong. */
export function decryptField(text: string, key: Buffer, context = ''): string {
  const parts = parseCiphertext(text);
  if (!parts) throw new EnvelopeError('Not a field ciphertext');
  return decryptParts(parts, key, context);
}

/**
 * The associated data of each field and key, kept: a rebuild decrypts thousands of fields under each pair. Looked up
 * by field, then by key id, which costs a quarter of a look-up by the two joined into one string. Bounded; it holds
 * only ids and field names, never a key.
 */
const aadCache = new Map<string, Map<string, Buffer>>();
let aadCached = 0;
function cachedAad(keyId: string, context: string): Buffer {
  let byKey = aadCache.get(context);
  if (!byKey) aadCache.set(context, (byKey = new Map()));
  let found = byKey.get(keyId);
  if (!found) {
    if (aadCached >= 10_000) {
      for (const keys of aadCache.values()) keys.clear();
      aadCached = 0;
    }
    byKey.set(keyId, (found = aad(keyId, context)));
    aadCached += 1;
  }
  return found;
}

/** decryptField for a ciphertext already parsed (a reader that parsed it to find its key does not parse it again). */
export function decryptParts(parts: FieldCiphertext, key: Buffer | KeyObject, context = ''): string {
  try {
    // The IV's 16 characters are whole groups of four: it and the ciphertext decode as one, into one buffer.
    const ivAndText = Buffer.from(parts.iv + parts.ct, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', key, ivAndText.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
    decipher.setAAD(cachedAad(parts.k, context));
    decipher.setAuthTag(Buffer.from(parts.tag, 'base64url'));
    const plain = decipher.update(ivAndText.subarray(IV_BYTES));
    decipher.final();
    return plain.toString('utf8');
  } catch {
    throw new EnvelopeError('The ciphertext does not authenticate (altered, or another key or field)');
  }
}
