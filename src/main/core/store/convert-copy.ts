/**
 * A checked copy of a SQLite file under another key: the step that turning encryption at rest
 * on or off takes for every cache and backup of a data folder (cache-conversion.ts,
 * backup-files.ts). The source is only read; the copy is written to a new file (created
 * exclusively, 0600), rekeyed, synced and compared with the source before anyone renames it.
 *
 * db.ts imports backups.ts, which imports this file, and the store's write worker runs db.ts
 * straight from source (Node strips the types): no parameter properties or enums here.
 */
import { closeSync, constants, fsyncSync, openSync, rmSync } from 'node:fs';
import { type CacheKey, type Database, openConnection, rekey } from './driver.ts';

/** The rows of every table of a database (sqlite_% tables aside), by name. */
export function tableCounts(db: Database): Record<string, number> {
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").pluck().all() as string[];
  const counts: Record<string, number> = {};
  for (const t of tables)
    counts[t] = db
      .prepare(`SELECT count(*) FROM "${t.replace(/"/g, '""')}"`)
      .pluck()
      .get() as number;
  return counts;
}

export function fsyncFile(path: string): void {
  const fd = openSync(path, 'r+');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * The copy of `source` at the new file `target`, open with the source's key (or none), in
 * rollback-journal mode (so SQLite3MC can rekey it): made first as an empty file, exclusively and
 * 0600 (VACUUM INTO accepts an empty file), so it never exists with SQLite's default mode, nor
 * through a planted link. The caller closes it, and removes `target` on any failure.
 */
export function vacuumCopy(source: Database, sourceKey: CacheKey | null, target: string): Database {
  closeSync(openSync(target, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), 0o600));
  source.prepare('VACUUM INTO ?').run(target);
  const copy = openConnection(target, { fileMustExist: true }, sourceKey);
  try {
    if (copy.pragma('journal_mode', { simple: true }) !== 'delete') copy.pragma('journal_mode = DELETE');
  } catch (err) {
    copy.close();
    throw err;
  }
  return copy;
}

/**
 * Writes `source` (an open connection, with the key its file has) to the new file `target`
 * encrypted with `to` (null: plain), and checks it: the copy opens with `to`, passes
 * integrity_check, and holds the source's schema version and the same rows in every table.
 * On any failure the copy is removed and the error says what did not check out.
 *
 * VACUUM INTO writes the copy with the source's encryption (or none), in rollback-journal mode;
 * SQLite3MC then rewrites its pages under `to` in one transaction (rekey). The source must not
 * change meanwhile: callers hold a lock on it, or copy a file nobody writes.
 */
export function writeConvertedCopy(source: Database, sourceKey: CacheKey | null, target: string, to: CacheKey | null): { counts: Record<string, number> } {
  const counts = tableCounts(source);
  const schema = source.pragma('user_version', { simple: true }) as number;
  try {
    const copy = vacuumCopy(source, sourceKey, target);
    try {
      if (!(sourceKey === null && to === null) && !(sourceKey !== null && sourceKey.equals(to))) rekey(copy, to);
    } finally {
      copy.close();
    }
    fsyncFile(target);
    const check = openConnection(target, { readonly: true, fileMustExist: true }, to);
    try {
      const integrity = (check.pragma('integrity_check(20)') as Array<{ integrity_check: string }>).map((r) => r.integrity_check).join('; ');
      if (integrity !== 'ok') throw new Error(`the converted copy failed integrity_check (${integrity.slice(0, 160)})`);
      const version = check.pragma('user_version', { simple: true }) as number;
      if (version !== schema) throw new Error(`the converted copy says schema ${version}, the original ${schema}`);
      const got = tableCounts(check);
      const differ = Object.keys({ ...counts, ...got }).filter((t) => counts[t] !== got[t]);
      if (differ.length)
        throw new Error(`the converted copy holds other rows than the original (${differ.map((t) => `${t}: ${got[t] ?? 0} vs ${counts[t] ?? 0}`).join(', ')})`);
    } finally {
      check.close();
    }
    return { counts };
  } catch (err) {
    rmSync(target, { force: true });
    rmSync(`${target}-journal`, { force: true });
    throw err;
  }
}
