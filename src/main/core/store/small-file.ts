import { randomBytes } from 'node:crypto';
import { chmodSync, closeSync, constants, fsyncSync, mkdirSync, openSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';

/**
 * Writes a small file (a backup's manifest, a data folder's encryption.json) through a
 * temporary name of its own, 0600, no-follow, synced, then renamed over the old: a crash or a
 * full disk leaves the old file or the new one, never half of either.
 */
export function writeSmallFile(path: string, text: string): void {
  const tmp = `${path}.${randomBytes(4).toString('hex')}.partial`;
  const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), 0o600);
  try {
    writeFileSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

/** A folder only its owner may enter (0700), made if missing and narrowed if it was wider. */
export function ownerOnlyFolder(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (process.platform !== 'win32' && (statSync(dir).mode & 0o077) !== 0) chmodSync(dir, 0o700);
}
