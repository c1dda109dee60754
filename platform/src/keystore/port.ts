/**
 * KeyStore: one random 256-bit data key per person (the subject, a user id), kept wrapped by a master key, never
 * in the event log. Personal and health fields of events are encrypted with the person's data key; destroying the
 * key erases those fields everywhere they were copied (crypto-shredding).
 */
export interface DataKey {
  /** Stable id of this key, written next to every ciphertext made with it. */
  key_id: string;
  subject_id: string;
  /** The raw 32-byte AES-256 key. Never logged, never stored unwrapped. */
  key: Buffer;
  created_at: string;
}

/** How many data keys each master key wraps. */
export interface WrappingSummary {
  master_key_id: string;
  /** Whether it is the current master key (DATA_MASTER_KEY). */
  current: boolean;
  keys: number;
}

export interface RotationResult {
  /** Data keys re-wrapped under the current master key. */
  rewrapped: number;
  /** Data keys that already were. */
  unchanged: number;
}

export interface KeyStore {
  readonly kind: 'sqlite' | 'mongodb' | 'memory';
  /**
   * The subject's data key, created on first use. Idempotent: every call (even concurrent ones, from any process)
   * returns the same key. Throws SubjectErasedError when the subject's key was destroyed.
   */
  create(subjectId: string): Promise<DataKey>;
  /** The subject's data key, or null when there is none or it was destroyed. Never throws for a missing key. */
  get(subjectId: string): Promise<DataKey | null>;
  /** The data key with this id (as written next to a ciphertext), or null when unknown or destroyed. */
  getByKeyId(keyId: string): Promise<DataKey | null>;
  /** The data keys with these ids that exist and were not destroyed, in one look-up (a reader meeting many people at once). */
  getByKeyIds(keyIds: readonly string[]): Promise<DataKey[]>;
  /** Crypto-shreds the subject's key: true when a key was destroyed, false when there was none (idempotent). */
  destroy(subjectId: string): Promise<boolean>;
  /** Data keys per master key that wraps them. */
  wrapping(): Promise<WrappingSummary[]>;
  /** Re-wraps every data key under the current master key (reading old wraps with the previous ones); events are untouched. */
  rotate(): Promise<RotationResult>;
  close(): Promise<void>;
}

export class SubjectErasedError extends Error {
  constructor(readonly subjectId: string) {
    super('This person was erased: their data key was destroyed');
    this.name = 'SubjectErasedError';
  }
}

/** A wrap made under a master key that is not configured (neither DATA_MASTER_KEY nor DATA_MASTER_KEY_PREVIOUS). */
export class UnknownMasterKeyError extends Error {
  constructor(readonly masterKeyId: string) {
    super(`A data key is wrapped by master key ${masterKeyId}, which is not configured: set it as DATA_MASTER_KEY_PREVIOUS`);
    this.name = 'UnknownMasterKeyError';
  }
}
