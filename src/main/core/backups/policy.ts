/**
 * How many backups are kept and when the next is due: the backups capability's rules over the
 * backup files the store makes and lists (store/backup-files.ts).
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { backupsFolderOf, listBackups, manifestPathOf } from '../store/backup-files.ts';

/** When the newest backup of this cache was made; null when there is none. */
export function lastBackupAt(cacheFile: string): Date | null {
  const newest = listBackups(cacheFile).find((b) => !b.problem);
  return newest ? new Date(newest.createdAt) : null;
}

/** A daily backup is due: none yet, or the newest is a day old. */
export const BACKUP_EVERY_MS = 24 * 3600_000;

export function backupDue(cacheFile: string, now = new Date()): boolean {
  const last = lastBackupAt(cacheFile);
  return !last || now.getTime() - last.getTime() >= BACKUP_EVERY_MS;
}

/**
 * Keeps the newest `keep` backups of this cache and deletes the older ones (file and
 * manifest). Backups made before a migration are not counted nor deleted: each is the one
 * copy of a schema this version no longer writes. Returns the names deleted.
 */
export function pruneBackups(cacheFile: string, keep: number): string[] {
  const dir = backupsFolderOf(cacheFile);
  const old = listBackups(cacheFile)
    .filter((b) => !b.problem && b.reason !== 'before-migration')
    .slice(keep);
  for (const b of old) {
    rmSync(manifestPathOf(join(dir, b.name)), { force: true });
    rmSync(join(dir, b.name), { force: true });
  }
  return old.map((b) => b.name);
}
