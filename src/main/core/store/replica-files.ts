/**
 * A team server's replica (docs/team.md, "The desktop on a team server"): a copy of its books a
 * signed-in desktop downloads and opens read-only when the server cannot be reached. It is made
 * the way a backup is (backup-files.ts: `VACUUM INTO` a new 0600 file, checked, hashed, with a
 * manifest), with three differences:
 *
 * - it is always a plain SQLite file: a server whose cache is encrypted at rest decrypts the copy
 *   (its key stays on the server; the desktop keeps the copy in its own 0700 data folder);
 * - the people's secrets are taken out of the copy before it is hashed (the `scrub` the caller
 *   gives: the people capability owns those tables), then the file is VACUUMed so no page of the
 *   file still holds a deleted row's bytes;
 * - its manifest names the server (its origin) rather than a cache of this data folder.
 *
 * The service's access key is never in a cache (it lives in the keychain, or the environment),
 * so never in a replica.
 */
import { existsSync, rmSync, statSync } from 'node:fs';
import { z } from 'zod';
import { type CacheKey, type Database, openConnection, rekey } from './driver.ts';
import { fsyncFile, vacuumCopy } from './convert-copy.ts';
import type { WritableDB } from './handles.ts';
import { inspectCopy, sha256File } from './backup-files.ts';
import { SCHEMA_VERSION } from './migrations/index.ts';

const REPLICA_FORMAT = 'folioscope-replica';

export const ReplicaManifestSchema = z.strictObject({
  format: z.literal(REPLICA_FORMAT),
  version: z.literal(1),
  /** The team server it is a copy of, as the server was reached (`https://books.example.org`). */
  origin: z.string().max(300),
  createdAt: z.string().max(40),
  appVersion: z.string().max(100),
  schemaVersion: z.number().int().min(1),
  bytes: z.number().int().min(0),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  counts: z.record(z.string().max(64), z.number().int().min(0)),
});
export type ReplicaManifest = z.output<typeof ReplicaManifestSchema>;

/** A replica that must not be opened: the message says what is wrong. */
export class ReplicaRefusedError extends Error {
  override name = 'ReplicaRefusedError';
}

/**
 * A second connection to a cache this process has open, for a worker thread to copy it: it only
 * reads (VACUUM INTO writes the copy), and SQLite shares the file's locks between a process's
 * connections; a writer's moment is waited for.
 */
export function openCacheToCopy(cacheFile: string, key: CacheKey | null): Database {
  const db = openConnection(cacheFile, { fileMustExist: true }, key);
  db.pragma('busy_timeout = 5000');
  return db;
}

/**
 * Writes the replica of the cache `db` has open (with key `key`, null when plain) to the new file
 * `target`, its people's secrets taken out by `scrub`, checked and hashed; returns its manifest.
 * On any failure `target` is removed and the error says why.
 */
export function makeReplica(
  db: Database,
  key: CacheKey | null,
  target: string,
  o: { origin: string; appVersion: string; now: Date; scrub: (copy: WritableDB) => void },
): ReplicaManifest {
  try {
    // Made as a conversion's copy is (exclusively, 0600), then decrypted.
    const copy = vacuumCopy(db, key, target);
    try {
      if (key) rekey(copy, null);
      // Deleted rows' bytes overwritten as they go, and the file rewritten after: nothing of a
      // hash or a session is left in a free page for a reader of the bytes.
      copy.pragma('secure_delete = ON');
      copy.transaction(() => o.scrub(copy as WritableDB))();
      copy.exec('VACUUM');
    } finally {
      copy.close();
    }
    fsyncFile(target);
    const checked = inspectCopy(target, null);
    if (checked.integrity !== 'ok') throw new Error(`the copy failed integrity_check (${checked.integrity.slice(0, 200)})`);
    return {
      format: REPLICA_FORMAT,
      version: 1,
      origin: o.origin,
      createdAt: o.now.toISOString(),
      appVersion: o.appVersion,
      schemaVersion: checked.schemaVersion,
      bytes: statSync(target).size,
      sha256: sha256File(target),
      counts: checked.counts,
    };
  } catch (err) {
    rmSync(target, { force: true });
    const code = (err as { code?: string }).code ?? '';
    const why = code === 'SQLITE_FULL' || code === 'ENOSPC' ? 'the disk is full' : String((err as Error).message ?? err).split('\n')[0];
    throw new Error(`The copy of the books for the desktop was not made: ${why}.`, { cause: err });
  }
}

/**
 * Checks a downloaded replica against its manifest (as given by the server): its size and
 * SHA-256, integrity_check, the schema (no newer than this version reads) and the rows recorded.
 * Returns the manifest parsed; throws ReplicaRefusedError saying what does not hold. Nothing is written.
 */
export function verifyReplica(file: string, manifest: unknown, origin?: string): ReplicaManifest {
  const parsed = ReplicaManifestSchema.safeParse(manifest);
  if (!parsed.success) throw new ReplicaRefusedError(`The copy's manifest is not one a Folioscope team server writes (${parsed.error.issues[0]!.message}).`);
  const m = parsed.data;
  if (origin !== undefined && m.origin !== origin) throw new ReplicaRefusedError(`The copy says it is of ${m.origin}, not of ${origin}.`);
  if (!existsSync(file)) throw new ReplicaRefusedError(`There is no copy at ${file}.`);
  const size = statSync(file).size;
  if (size !== m.bytes) throw new ReplicaRefusedError(`The copy is ${size} bytes; its manifest says ${m.bytes}: it was cut off or changed.`);
  if (sha256File(file) !== m.sha256) throw new ReplicaRefusedError("The copy does not match its manifest's SHA-256: its bytes were changed.");
  if (m.schemaVersion > SCHEMA_VERSION)
    throw new ReplicaRefusedError(
      `The copy was made by a newer Folioscope (schema ${m.schemaVersion}; this version reads up to ${SCHEMA_VERSION}): update Folioscope.`,
    );
  let checked: ReturnType<typeof inspectCopy>;
  try {
    checked = inspectCopy(file, null);
  } catch (err) {
    throw new ReplicaRefusedError(`The copy cannot be read (${String((err as Error).message).split('\n')[0]}).`);
  }
  if (checked.integrity !== 'ok') throw new ReplicaRefusedError(`The copy fails integrity_check (${checked.integrity.slice(0, 160)}).`);
  if (checked.schemaVersion !== m.schemaVersion)
    throw new ReplicaRefusedError(`The copy says schema ${checked.schemaVersion}; its manifest says ${m.schemaVersion}.`);
  const differ = Object.keys({ ...m.counts, ...checked.counts }).filter((t) => m.counts[t] !== checked.counts[t]);
  if (differ.length) throw new ReplicaRefusedError(`The copy holds other rows than its manifest records (${differ.join(', ')}).`);
  return m;
}
