/**
 * A data folder's every file converted to another key: each cache (cache-conversion.ts), its
 * backups (backup-files.ts) and its copies kept aside, in that order, telling how far it is after
 * each file. session/encryption.ts orders this with the folder's keys and settings; it runs on a
 * worker thread (conversion-thread.ts), so the app's thread keeps answering while a large cache
 * is copied and checked.
 *
 * conversion-worker.ts runs this file straight from source (Node strips the types): no parameter
 * properties or enums here.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { ConversionCount } from '../../../shared/model.ts';
import { BACKUPS_FOLDER, convertBackups, listBackups } from './backup-files.ts';
import { convertCache, cacheFilesIn, finishConversions, keptAsideCopies, removeOrphanSidecars } from './cache-conversion.ts';
import type { CacheKey } from './driver.ts';

/** Every cache of the folder, and the caches whose backups are there though the cache is gone. */
export function cachesWithBackups(dataDir: string): string[] {
  const files = new Set(cacheFilesIn(dataDir));
  const backups = join(dataDir, BACKUPS_FOLDER);
  if (existsSync(backups))
    for (const n of readdirSync(backups)) {
      const stem = /^(demo|live-[0-9a-f]{12})-\d{8}T\d{6}Z/.exec(n)?.[1];
      if (stem) files.add(join(dataDir, `${stem}.sqlite`));
    }
  return [...files].sort();
}

const sizeOf = (file: string) => statSync(file, { throwIfNoEntry: false })?.size ?? 0;

/**
 * Every cache, backup and copy kept aside of the folder converted to `to`: each cache alone (see
 * convertCache), its old file removed once the new one opened; then its backups and its copies
 * kept aside by a restore or a move-aside. Returns the backups and copies that could not be (one
 * that cannot be read, a damaged one), named with why; a cache that cannot be throws.
 *
 * `onCount` is told the files and bytes to convert before the first, and again as each is done
 * with (converted, left as it was, or already under `to`): files, not pages, since a file is
 * converted in one step of SQLite's.
 */
export function convertFolder(
  dataDir: string,
  from: CacheKey | null,
  to: CacheKey | null,
  now: Date,
  onCount: (c: ConversionCount) => void = () => {},
): string[] {
  const plan = cachesWithBackups(dataDir).map((cache) => ({
    cache,
    bytes: existsSync(cache) ? sizeOf(cache) : null,
    backups: listBackups(cache),
    copies: keptAsideCopies(cache),
  }));
  const count: ConversionCount = { done: 0, files: 0, doneBytes: 0, bytes: 0 };
  for (const p of plan) {
    count.files += (p.bytes === null ? 0 : 1) + p.backups.length + p.copies.length;
    count.bytes += (p.bytes ?? 0) + p.backups.reduce((n, b) => n + b.bytes, 0) + p.copies.reduce((n, f) => n + sizeOf(f), 0);
  }
  const doneWith = (bytes: number) => {
    // A file the plan did not see (a backup made meanwhile cannot be: the caches are closed) still counts once.
    count.files = Math.max(count.files, count.done + 1);
    count.done++;
    count.doneBytes = Math.min(count.bytes, count.doneBytes + bytes);
    onCount({ ...count });
  };
  onCount({ ...count });

  const problems: string[] = [];
  for (const p of plan) {
    if (p.bytes !== null) {
      convertCache(p.cache, from, to, now);
      finishConversions(p.cache);
      doneWith(p.bytes);
    }
    const { skipped } = convertBackups(p.cache, from, to, (b) => doneWith(b.bytes));
    problems.push(...skipped.map((s) => `${s.name}: ${s.problem}`));
    removeOrphanSidecars(p.cache);
    for (const copy of p.copies) {
      const bytes = sizeOf(copy);
      try {
        convertCache(copy, from, to, now);
        finishConversions(copy);
      } catch (err) {
        problems.push(`${basename(copy)}: ${String((err as Error).message).split('\n')[0]}`);
      }
      doneWith(bytes);
    }
  }
  return problems;
}
