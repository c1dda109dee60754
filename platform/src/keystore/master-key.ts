import { createHash, randomBytes } from 'node:crypto';
import { ensurePrivateDirectory } from '../private-files';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A 256-bit key-encryption key and its id (a digest, which says nothing about the key). */
export interface MasterKey {
  id: string;
  key: Buffer;
}

/** The current master key wraps new and rotated data keys; previous ones only unwrap. */
export interface MasterKeys {
  current: MasterKey;
  previous: MasterKey[];
}

const MASTER_KEY_BYTES = 32;

export function masterKeyId(key: Buffer): string {
  return `mk-${createHash('sha256').update('telemed master key id\0').update(key).digest('hex').slice(0, 16)}`;
}

/** A master key from its text: 32 bytes as base64, base64url or 64 hex digits. */
export function parseMasterKey(text: string, name = 'DATA_MASTER_KEY'): MasterKey {
  const trimmed = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64');
  if (key.length !== MASTER_KEY_BYTES || !/^[A-Za-z0-9+/_=-]+$/.test(trimmed)) {
    throw new Error(`${name} must be ${MASTER_KEY_BYTES} random bytes as base64 or 64 hex digits (generate one with: openssl rand -base64 32)`);
  }
  return { id: masterKeyId(key), key };
}

/** A fresh master key as text, for an operator to put in DATA_MASTER_KEY. */
export function generateMasterKeyText(): string {
  return randomBytes(MASTER_KEY_BYTES).toString('base64');
}

/**
 * The master keys: DATA_MASTER_KEY when set; otherwise (never in production) one generated into DATA_DIR/master-key
 * so that the embedded product keeps its keys across restarts. DATA_MASTER_KEY_PREVIOUS (comma-separated) unwraps
 * data keys wrapped before a rotation.
 */
export function loadMasterKeys(options: { masterKey?: string; previous?: string; dataDir: string; production: boolean }): MasterKeys {
  let current: MasterKey;
  if (options.masterKey) current = parseMasterKey(options.masterKey);
  else if (options.production) {
    throw new Error('DATA_MASTER_KEY must be set in production (32 random bytes as base64: openssl rand -base64 32); it wraps every person\'s data key');
  } else {
    const file = join(options.dataDir, 'master-key');
    if (!existsSync(file)) {
      ensurePrivateDirectory(options.dataDir);
      try {
        writeFileSync(file, generateMasterKeyText(), { mode: 0o600, flag: 'wx' });
      } catch (error) {
        // Another process created it first: use theirs.
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
    }
    current = parseMasterKey(readFileSync(file, 'utf8'), `${file}`);
  }
  const previous = (options.previous ?? '')
    .split(',')
    .map((text) => text.trim())
    .filter(Boolean)
    .map((text) => parseMasterKey(text, 'DATA_MASTER_KEY_PREVIOUS'))
    .filter((key) => key.id !== current.id);
  return { current, previous };
}

/** The master keys as the configuration says. */
export function masterKeysFromConfig(config: { DATA_MASTER_KEY?: string; DATA_MASTER_KEY_PREVIOUS?: string; dataDir: string; production: boolean }): MasterKeys {
  return loadMasterKeys({ masterKey: config.DATA_MASTER_KEY, previous: config.DATA_MASTER_KEY_PREVIOUS, dataDir: config.dataDir, production: config.production });
}
