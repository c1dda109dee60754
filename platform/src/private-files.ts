import { chmodSync, closeSync, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * The data directory and the files in it hold people's (encrypted) health records, their keys and the signing
 * secret: only the account the product runs as may read them. A directory the product creates is 0700; one that
 * already exists is tightened to 0700 unless it is a shared directory (sticky bit, such as /tmp), which is not the
 * product's to change.
 */
export function ensurePrivateDirectory(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const { mode } = statSync(dir);
  const sticky = (mode & 0o1000) !== 0;
  if (!sticky && (mode & 0o077) !== 0) chmodSync(dir, mode & 0o700);
}

/**
 * Creates a file readable by its owner only (0600), or tightens an existing one, before a library opens it:
 * SQLite then gives its -wal and -shm files the same permissions.
 */
export function ensurePrivateFile(filename: string): void {
  ensurePrivateDirectory(dirname(filename));
  closeSync(openSync(filename, 'a', 0o600));
  if ((statSync(filename).mode & 0o077) !== 0) chmodSync(filename, 0o600);
}
