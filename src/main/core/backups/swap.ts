/**
 * The file moves of a restore once the cache is closed (the backup was staged and checked by
 * store/backup-files.ts stageRestore while it was open), and their undoing.
 */
import { existsSync, renameSync, rmSync } from 'node:fs';
import { fileTime } from '../store/backup-files.ts';

/** SQLite's companion files of a cache in WAL mode. */
const COMPANIONS = ['-wal', '-shm'];

/**
 * The second step, once the cache is closed: the cache (and any -wal and -shm) renamed to
 * `<cache>.before-restore-<time>`, and the staged copy renamed into its place. Renames only,
 * on one file system: the cache is never overwritten. Returns where the old cache was kept.
 */
export function swapInRestore(cacheFile: string, staged: string, now = new Date()): string {
  let keptAside = `${cacheFile}.before-restore-${fileTime(now)}`;
  for (let i = 2; existsSync(keptAside); i++) keptAside = `${cacheFile}.before-restore-${fileTime(now)}-${i}`;
  const moved: Array<[string, string]> = [];
  try {
    if (existsSync(cacheFile)) {
      renameSync(cacheFile, keptAside);
      moved.push([keptAside, cacheFile]);
    }
    for (const c of COMPANIONS)
      if (existsSync(`${cacheFile}${c}`)) {
        renameSync(`${cacheFile}${c}`, `${keptAside}${c}`);
        moved.push([`${keptAside}${c}`, `${cacheFile}${c}`]);
      }
    renameSync(staged, cacheFile);
    return keptAside;
  } catch (err) {
    for (const [from, to] of moved.reverse()) renameSync(from, to);
    throw err;
  }
}

/** Undoes swapInRestore (the restored cache would not open): the kept cache goes back in its place. */
export function undoRestore(cacheFile: string, keptAside: string): void {
  for (const c of COMPANIONS) rmSync(`${cacheFile}${c}`, { force: true });
  rmSync(cacheFile, { force: true });
  renameSync(keptAside, cacheFile);
  for (const c of COMPANIONS) if (existsSync(`${keptAside}${c}`)) renameSync(`${keptAside}${c}`, `${cacheFile}${c}`);
}
