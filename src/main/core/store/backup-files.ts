/**
 * Backups of the cache (docs/data-format.md, "Backups"): a copy made with `VACUUM INTO` (a
 * consistent snapshot, taken while the app runs and syncs), checked before it gets its name,
 * with a manifest beside it; checked again before it is restored.
 *
 * A backup is `<data folder>/backups/<cache stem>-<UTC time>.sqlite` (0600, folder 0700) and
 * `<same name>.json`, its manifest: when and why it was made, the schema version, the rows of
 * the main tables, its size and SHA-256. The copy is written to a `.partial` name, checked
 * (`PRAGMA integrity_check`, schema version, counts) and hashed, and only then are its
 * manifest and it renamed into place (in that order): a name in the folder is a backup that
 * checked out.
 *
 * The access key is never in the cache (it lives in the OS keychain), so never in a backup or
 * a manifest. An encrypted cache is copied the same way: `VACUUM INTO` from its keyed
 * connection writes the copy encrypted with the same key (the backup tests check the copy
 * is unreadable without it), the SHA-256 is of the file's bytes as they are, the manifest
 * names the cipher and the key's id (never the key), and `openCopy` applies the key.
 *
 * The files only: made, checked, listed, staged for a restore and converted. They stay in the
 * open store because the connection (a backup before a migration), the cache's conversion and
 * the session's encryption need them below the backups capability; when one is due, how many
 * are kept and the restore's swap are that capability's (backups/policy.ts, backups/swap.ts).
 *
 * db.ts imports this file, and the store's write worker runs db.ts straight from source
 * (Node strips the types): no parameter properties or enums here, nor imports of files with them.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  constants,
  copyFileSync,
  existsSync,
  fsyncSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { ownerOnlyFolder, writeSmallFile } from './small-file.ts';
import { z } from 'zod';
import type { BackupInfo, BackupReason } from '../../../shared/model.ts';
import { SCHEMA_VERSION } from './migrations/index.ts';
import { type CacheKey, CIPHER, type Database, keyOf, openConnection, rekey } from './driver.ts';
import { writeConvertedCopy } from './convert-copy.ts';

export const BACKUPS_FOLDER = 'backups';
const MANIFEST_FORMAT = 'folioscope-backup';
const MANIFEST_VERSION = 1;

/** The tables whose rows a manifest records (those the copy has: an older schema lacks some). */
const COUNTED_TABLES = [
  'wallets',
  'wallet_groups',
  'wallet_group_members',
  'schedules',
  'settings',
  'snapshots',
  'transactions',
  'txn_sync_ranges',
  'txn_log_sets',
  'transaction_changes',
] as const;

const ManifestSchema = z.strictObject({
  format: z.literal(MANIFEST_FORMAT),
  version: z.literal(MANIFEST_VERSION),
  file: z.string().max(200),
  cache: z.string().max(200),
  createdAt: z.string().max(40),
  reason: z.enum(['scheduled', 'manual', 'before-migration']),
  appVersion: z.string().max(100),
  schemaVersion: z.number().int().min(1),
  bytes: z.number().int().min(0),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  integrityCheck: z.literal('ok'),
  counts: z.record(z.string().max(64), z.number().int().min(0)),
  /** Null: the copy is a plain SQLite file. Else its cipher and its key's id (CacheKey.id: never the key). */
  encryption: z.strictObject({ cipher: z.literal(CIPHER), keyId: z.string().regex(/^[0-9a-f]{16}$/) }).nullable(),
});
type Manifest = z.output<typeof ManifestSchema>;

/** A backup that must not be restored: the message says what is wrong and that nothing was changed. */
export class BackupRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupRefusedError';
  }
}

/** The backups folder of a cache: beside it, in its data folder. */
export const backupsFolderOf = (cacheFile: string) => join(dirname(cacheFile), BACKUPS_FOLDER);
/** The stem backups of a cache are named with: `demo` for demo.sqlite. */
const stemOf = (cacheFile: string) => basename(cacheFile).replace(/\.sqlite$/, '');
export const manifestPathOf = (backupPath: string) => `${backupPath}.json`;
/** The UTC time as a file-name part: 20260115T060000Z. */
export const fileTime = (d: Date) =>
  d
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');

/** A name of the backups folder, never a path (the contract checks this too). */
function checkName(name: string): void {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*\.sqlite$/.test(name) || name.length > 200)
    throw new BackupRefusedError(`"${name.slice(0, 60)}" is not the name of a backup: use a name as folioscope backup list shows it.`);
}

/** SHA-256 of a file, read in 1 MiB pieces (a cache can be large). */
export function sha256File(path: string): string {
  const hash = createHash('sha256');
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(1024 * 1024);
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      hash.update(buf.subarray(0, n));
    }
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex');
}

/**
 * Opens a backup's copy to check it: read-only, never writing to it (a copy from `VACUUM INTO`
 * is in rollback-journal mode, so reading it makes no -wal or -shm), with the key of an
 * encrypted one.
 */
function openCopy(path: string, key: CacheKey | null): Database {
  return openConnection(path, { readonly: true, fileMustExist: true }, key);
}

/** What a copy holds, checked: integrity_check's verdict, its schema version, the rows of the main tables. */
export function inspectCopy(path: string, key: CacheKey | null): { integrity: string; schemaVersion: number; counts: Record<string, number> } {
  const db = openCopy(path, key);
  try {
    const rows = (db.pragma('integrity_check(20)') as Array<{ integrity_check: string }>).map((r) => r.integrity_check);
    const integrity = rows.join('; ');
    const schemaVersion = db.pragma('user_version', { simple: true }) as number;
    const present = new Set((db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>).map((r) => r.name));
    const counts: Record<string, number> = {};
    if (integrity === 'ok')
      for (const t of COUNTED_TABLES) if (present.has(t)) counts[t] = (db.prepare(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n;
    return { integrity, schemaVersion, counts };
  } finally {
    db.close();
  }
}

const infoOf = (m: Manifest): BackupInfo => ({
  name: m.file,
  cache: m.cache,
  createdAt: m.createdAt,
  reason: m.reason,
  bytes: m.bytes,
  schemaVersion: m.schemaVersion,
  sha256: m.sha256,
  counts: m.counts,
  encrypted: m.encryption !== null,
  problem: null,
});

export interface BackupOptions {
  reason: BackupReason;
  appVersion: string;
  now?: Date;
}

/**
 * Makes a backup of the cache `db` has open (whose file is `cacheFile`): `VACUUM INTO` a
 * `.partial` file, checked, hashed, then named. A copy that does not check out is deleted
 * and the error says why; nothing else is touched.
 */
export function createBackup(db: Database, cacheFile: string, o: BackupOptions): BackupInfo {
  const now = o.now ?? new Date();
  const dir = backupsFolderOf(cacheFile);
  ownerOnlyFolder(dir);
  const base = `${stemOf(cacheFile)}-${fileTime(now)}`;
  let name = `${base}.sqlite`;
  for (let i = 2; existsSync(join(dir, name)) || existsSync(manifestPathOf(join(dir, name))); i++) name = `${base}-${i}.sqlite`;
  const path = join(dir, name);
  const partial = `${path}.${randomBytes(4).toString('hex')}.partial`;
  try {
    // An empty file made first, exclusively and 0600: VACUUM INTO accepts an empty file, and
    // the copy never exists with SQLite's default mode, nor through a planted link.
    closeSync(openSync(partial, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), 0o600));
    db.prepare('VACUUM INTO ?').run(partial);
    const fd = openSync(partial, 'r+');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    // The copy has the cache's encryption: VACUUM INTO writes it with the connection's key.
    const key = keyOf(db);
    const checked = inspectCopy(partial, key);
    const source = db.pragma('user_version', { simple: true }) as number;
    if (checked.integrity !== 'ok') throw new Error(`the copy failed integrity_check (${checked.integrity.slice(0, 200)})`);
    if (checked.schemaVersion !== source) throw new Error(`the copy says schema ${checked.schemaVersion}, the cache ${source}`);
    const manifest: Manifest = {
      format: MANIFEST_FORMAT,
      version: MANIFEST_VERSION,
      file: name,
      cache: basename(cacheFile),
      createdAt: now.toISOString(),
      reason: o.reason,
      appVersion: o.appVersion,
      schemaVersion: checked.schemaVersion,
      bytes: statSync(partial).size,
      sha256: sha256File(partial),
      integrityCheck: 'ok',
      counts: checked.counts,
      encryption: key ? { cipher: CIPHER, keyId: key.id() } : null,
    };
    // The manifest first, then the copy under its name: a backup listed while one is being
    // made is never one without its manifest (a crash between the two leaves a manifest with
    // no copy, which no list shows and the next name skips).
    writeSmallFile(manifestPathOf(path), JSON.stringify(manifest, null, 2) + '\n');
    try {
      renameSync(partial, path);
    } catch (err) {
      rmSync(manifestPathOf(path), { force: true });
      throw err;
    }
    return infoOf(manifest);
  } catch (err) {
    rmSync(partial, { force: true });
    const code = (err as { code?: string }).code ?? '';
    const why = code === 'SQLITE_FULL' || code === 'ENOSPC' ? 'the disk is full' : String((err as Error).message ?? err).split('\n')[0];
    throw new Error(`The backup of ${basename(cacheFile)} was not made: ${why}. The cache was not changed.`, { cause: err });
  }
}

function readManifest(backupPath: string): Manifest {
  const path = manifestPathOf(backupPath);
  let raw: string;
  try {
    raw = readFileSync(path, 'utf8');
  } catch {
    throw new BackupRefusedError(`${basename(backupPath)} has no manifest (${basename(path)}): it cannot be checked, so it is not restored.`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new BackupRefusedError(`The manifest of ${basename(backupPath)} is not valid JSON: it was changed or cut off.`);
  }
  const m = ManifestSchema.safeParse(parsed);
  if (!m.success) {
    const issue = m.error.issues[0]!;
    throw new BackupRefusedError(
      `The manifest of ${basename(backupPath)} is not one Folioscope wrote (${issue.path.join('.') || 'manifest'}: ${issue.message}).`,
    );
  }
  if (m.data.file !== basename(backupPath)) throw new BackupRefusedError(`The manifest of ${basename(backupPath)} describes another file (${m.data.file}).`);
  return m.data;
}

/** The backups of this cache, newest first, as their manifests describe them (not re-hashed: see verifyBackup). */
export function listBackups(cacheFile: string): BackupInfo[] {
  const dir = backupsFolderOf(cacheFile);
  if (!existsSync(dir)) return [];
  const stem = stemOf(cacheFile);
  const names = readdirSync(dir).filter((n) => n.endsWith('.sqlite') && n.startsWith(`${stem}-`) && /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(n));
  return names
    .map((name): BackupInfo => {
      try {
        return infoOf(readManifest(join(dir, name)));
      } catch (err) {
        const st = statSync(join(dir, name), { throwIfNoEntry: false });
        return {
          name,
          cache: basename(cacheFile),
          createdAt: st ? st.mtime.toISOString() : '',
          reason: 'manual',
          bytes: st?.size ?? 0,
          schemaVersion: 0,
          sha256: '',
          counts: {},
          encrypted: false,
          problem: (err as Error).message,
        };
      }
    })
    .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : a.name < b.name ? 1 : -1));
}

/**
 * Checks a backup as a restore does, and returns what its manifest says; throws
 * BackupRefusedError with the reason when it must not be restored: no or a changed manifest,
 * bytes that do not hash to the manifest's SHA-256, a copy failing integrity_check, a schema
 * newer than this version reads, rows not those recorded, or an encrypted copy whose key is
 * not `key` (the data folder's). Nothing is written.
 */
export function verifyBackup(cacheFile: string, asked: string, key: CacheKey | null = null): BackupInfo {
  checkName(asked);
  const name = resolveName(cacheFile, asked);
  const path = join(backupsFolderOf(cacheFile), name);
  if (!existsSync(path)) throw new BackupRefusedError(`There is no backup ${name} in ${backupsFolderOf(cacheFile)}.`);
  const m = readManifest(path);
  const refuse = (why: string) => new BackupRefusedError(`${name} ${why}, so it is not restored. Nothing was changed.`);
  // Demo data never replaces a service's cache, nor one service's another's.
  if (m.cache !== basename(cacheFile))
    throw refuse(`is a backup of ${m.cache}, not of the cache in use (${basename(cacheFile)}): connect to its service first`);
  const size = statSync(path).size;
  if (size !== m.bytes) throw refuse(`is ${size} bytes; its manifest says ${m.bytes}: it was changed or cut off`);
  if (sha256File(path) !== m.sha256) throw refuse("does not match its manifest's SHA-256: its bytes were changed after it was made");
  if (m.schemaVersion > SCHEMA_VERSION)
    throw refuse(`was made by a newer Folioscope (schema ${m.schemaVersion}; this version reads up to ${SCHEMA_VERSION}): update Folioscope`);
  if (m.encryption && !key) throw refuse('is encrypted, and this data folder has no key (its caches are not encrypted)');
  if (m.encryption && m.encryption.keyId !== key!.id())
    throw refuse(`is encrypted with another key (key ${m.encryption.keyId}; this data folder's is ${key!.id()})`);
  let checked: ReturnType<typeof inspectCopy>;
  try {
    checked = inspectCopy(path, m.encryption ? key : null);
  } catch (err) {
    throw refuse(`cannot be read as a cache (${String((err as Error).message).split('\n')[0]})`);
  }
  if (checked.integrity !== 'ok') throw refuse(`fails integrity_check (${checked.integrity.slice(0, 160)})`);
  if (checked.schemaVersion !== m.schemaVersion) throw refuse(`says schema ${checked.schemaVersion}; its manifest says ${m.schemaVersion}`);
  if (checked.schemaVersion > SCHEMA_VERSION)
    throw refuse(`was made by a newer Folioscope (schema ${checked.schemaVersion}; this version reads up to ${SCHEMA_VERSION}): update Folioscope`);
  const differ = Object.keys({ ...m.counts, ...checked.counts }).filter((t) => m.counts[t] !== checked.counts[t]);
  if (differ.length)
    throw refuse(`holds other rows than its manifest records (${differ.map((t) => `${t}: ${checked.counts[t] ?? 0} vs ${m.counts[t] ?? 0}`).join(', ')})`);
  return infoOf(m);
}

/**
 * The backup a name stands for. `cache encrypt` and `decrypt` convert a backup into a copy named
 * after it (`<name>-encrypted.sqlite`, `<name>-plain.sqlite`) and remove the old one, so a name
 * the backup had before (the one printed when it was made, or before an earlier conversion)
 * still names it: the one backup of the folder with the same name once those suffixes are left
 * out. A name that exists is itself; one that matches none is left for the caller to refuse.
 */
function resolveName(cacheFile: string, name: string): string {
  const dir = backupsFolderOf(cacheFile);
  if (existsSync(join(dir, name)) || !existsSync(dir)) return name;
  const stem = conversionStem(name);
  const same = readdirSync(dir).filter((n) => n.endsWith('.sqlite') && conversionStem(n) === stem);
  if (same.length > 1)
    throw new BackupRefusedError(`There is no backup ${name}; encrypting or decrypting converted it into one of ${same.join(', ')}: name one of them.`);
  return same[0] ?? name;
}

/**
 * What a stop left in the backups folder of `cacheFile` before `before` (ms): a copy or a
 * manifest not yet named (`….partial`), and a manifest whose backup is gone (a stop between the
 * removal of an old backup and of its manifest). Newer ones may be another process's at work.
 */
function removeLeftovers(cacheFile: string, before: number): void {
  const dir = backupsFolderOf(cacheFile);
  if (!existsSync(dir)) return;
  const stem = stemOf(cacheFile);
  for (const n of readdirSync(dir)) {
    if (!n.startsWith(`${stem}-`)) continue;
    const path = join(dir, n);
    const stale = /\.[0-9a-f]{8}\.partial$/.test(n) || (n.endsWith('.sqlite.json') && !existsSync(path.slice(0, -'.json'.length)));
    const st = stale ? statSync(path, { throwIfNoEntry: false }) : undefined;
    if (st?.isFile() && st.mtimeMs < before) rmSync(path, { force: true });
  }
}

/** A backup's name without the suffixes a conversion adds: `demo-20260115T060000Z` for `demo-20260115T060000Z-encrypted-2.sqlite`. */
const conversionStem = (name: string) => name.replace(/\.sqlite$/, '').replace(/-(encrypted|plain)(-\d+)?$/, '');

/**
 * Before a migration changes an existing cache: a backup of it as it is (its schema, its
 * rows), made on the connection about to migrate it. A backup that cannot be made stops the
 * migration: the cache is not changed.
 */
export function backupBeforeMigration(db: Database, cacheFile: string, from: number, appVersion = 'unknown'): BackupInfo {
  try {
    return createBackup(db, cacheFile, { reason: 'before-migration', appVersion });
  } catch (err) {
    throw new Error(
      `Before upgrading the cache (schema ${from} to ${SCHEMA_VERSION}) Folioscope keeps a backup of it, and it could not: ${(err as Error).message} Free some disk space and start again, or open it read-only.`,
      { cause: err },
    );
  }
}

/**
 * The first step of a restore, while the current cache is still open: the backup verified,
 * copied beside the cache under a temporary name and that copy hashed again; a plain backup
 * restored into an encrypted data folder is then encrypted with its key (the copy, never the
 * backup), so the folder's caches stay encrypted. Nothing of the cache is touched; on failure
 * the copy is removed.
 */
export function stageRestore(cacheFile: string, name: string, key: CacheKey | null = null): { staged: string; backup: BackupInfo } {
  const backup = verifyBackup(cacheFile, name, key);
  const staged = `${cacheFile}.restoring-${randomBytes(4).toString('hex')}`;
  try {
    // The backup's name now (see resolveName), which may not be the one asked for.
    copyFileSync(join(backupsFolderOf(cacheFile), backup.name), staged, constants.COPYFILE_EXCL);
    chmodSync(staged, 0o600);
    const fd = openSync(staged, 'r+');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    if (sha256File(staged) !== backup.sha256) throw new BackupRefusedError(`The copy of ${name} did not match it: nothing was changed.`);
    if (key && !backup.encrypted) encryptCopy(staged, key, backup.counts);
    return { staged, backup };
  } catch (err) {
    rmSync(staged, { force: true });
    throw err;
  }
}

/**
 * Encrypts a plain copy in place with `key` (a staged restore: rollback-journal mode, so
 * SQLite3MC can rekey it) and checks the result reads with the key: integrity_check and the
 * same rows.
 */
function encryptCopy(path: string, key: CacheKey, counts: Record<string, number>): void {
  const db = openConnection(path, { fileMustExist: true }, null);
  try {
    rekey(db, key);
  } finally {
    db.close();
  }
  const checked = inspectCopy(path, key);
  if (checked.integrity !== 'ok') throw new Error(`the encrypted copy failed integrity_check (${checked.integrity.slice(0, 160)})`);
  const differ = Object.keys({ ...counts, ...checked.counts }).filter((t) => counts[t] !== checked.counts[t]);
  if (differ.length) throw new Error(`the encrypted copy holds other rows (${differ.join(', ')})`);
}

/** What converting a cache's backups did: the names written, and those left as they were with why. */
export interface BackupsConverted {
  converted: Array<{ from: string; to: string }>;
  skipped: Array<{ name: string; problem: string }>;
}

/**
 * Turning encryption at rest on or off: every backup of the cache is written again under the
 * new key (`to`; null: plain), so backups are encrypted exactly when the cache is. Each is
 * verified first (its manifest, SHA-256, integrity_check, rows), copied and checked under the
 * new key (writeConvertedCopy), and given its own name (`…-encrypted.sqlite` / `…-plain.sqlite`)
 * and manifest (same time, reason and rows; new size, SHA-256 and encryption); only then is the
 * old one removed (its file first, so no list ever shows a backup without its manifest). A
 * backup that does not verify is left as it was and named in `skipped`.
 *
 * Run again after a stop midway, it finishes the job without doubles: a backup whose converted
 * twin is already there (same name once the suffixes are left out, same time, reason and rows,
 * under `to`) is only removed; the `.partial` files and the manifests without a backup that a stop
 * left from before this run are removed. `onEach` is told of each backup once it is done with.
 */
export function convertBackups(cacheFile: string, from: CacheKey | null, to: CacheKey | null, onEach: (b: BackupInfo) => void = () => {}): BackupsConverted {
  const dir = backupsFolderOf(cacheFile);
  const done: BackupsConverted = { converted: [], skipped: [] };
  removeLeftovers(cacheFile, Date.now());
  const backups = listBackups(cacheFile);
  // Each backup's key, read once before any is converted (a converted one's manifest is removed with it).
  const keyIds = new Map(backups.filter((b) => !b.problem && b.encrypted).map((b) => [b.name, readManifest(join(dir, b.name)).encryption?.keyId ?? null]));
  const removed = new Set<string>();
  const underTo = (b: BackupInfo) => !b.problem && !removed.has(b.name) && b.encrypted === (to !== null) && (!to || keyIds.get(b.name) === to.id());
  for (const b of backups) {
    try {
      if (b.problem) {
        done.skipped.push({ name: b.name, problem: b.problem });
        continue;
      }
      if (underTo(b)) continue;
      const twin = backups.find(
        (t) =>
          t !== b &&
          underTo(t) &&
          conversionStem(t.name) === conversionStem(b.name) &&
          t.createdAt === b.createdAt &&
          t.reason === b.reason &&
          JSON.stringify(t.counts) === JSON.stringify(b.counts),
      );
      if (twin) {
        // Converted before a stop that came before the old one was removed: removed now.
        rmSync(join(dir, b.name), { force: true });
        rmSync(manifestPathOf(join(dir, b.name)), { force: true });
        removed.add(b.name);
        done.converted.push({ from: b.name, to: twin.name });
        continue;
      }
      let m: Manifest;
      try {
        verifyBackup(cacheFile, b.name, from);
        m = readManifest(join(dir, b.name));
      } catch (err) {
        done.skipped.push({ name: b.name, problem: (err as Error).message });
        continue;
      }
      const base = conversionStem(b.name);
      let name = `${base}-${to ? 'encrypted' : 'plain'}.sqlite`;
      for (let i = 2; existsSync(join(dir, name)) || existsSync(manifestPathOf(join(dir, name))); i++)
        name = `${base}-${to ? 'encrypted' : 'plain'}-${i}.sqlite`;
      const path = join(dir, name);
      const partial = `${path}.${randomBytes(4).toString('hex')}.partial`;
      const source = openCopy(join(dir, b.name), m.encryption ? from : null);
      try {
        writeConvertedCopy(source, m.encryption ? from : null, partial, to);
      } catch (err) {
        done.skipped.push({ name: b.name, problem: (err as Error).message });
        continue;
      } finally {
        source.close();
      }
      try {
        const manifest: Manifest = {
          ...m,
          file: name,
          bytes: statSync(partial).size,
          sha256: sha256File(partial),
          encryption: to ? { cipher: CIPHER, keyId: to.id() } : null,
        };
        writeSmallFile(manifestPathOf(path), JSON.stringify(manifest, null, 2) + '\n');
        renameSync(partial, path);
      } catch (err) {
        rmSync(partial, { force: true });
        rmSync(manifestPathOf(path), { force: true });
        done.skipped.push({ name: b.name, problem: (err as Error).message });
        continue;
      }
      rmSync(join(dir, b.name), { force: true });
      rmSync(manifestPathOf(join(dir, b.name)), { force: true });
      removed.add(b.name);
      done.converted.push({ from: b.name, to: name });
    } finally {
      // Each backup done with, whichever way (converted, left, or already under `to`): a conversion's progress.
      onEach(b);
    }
  }
  return done;
}
