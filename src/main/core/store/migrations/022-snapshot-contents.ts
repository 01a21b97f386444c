import { createHash } from 'node:crypto';
import type { Database } from 'better-sqlite3-multiple-ciphers';

/**
 * Version 22: each snapshot keeps the SHA-256 of its body without the request id the service
 * writes into it (`content_sha256`), beside the hash of the body exactly as received (`sha256`).
 *
 * A close hashed the bodies as received, and every answer of the service carries a new request
 * id in its message: the same data synced into another cache (a close imported with the user's
 * data file) never hashed the same, so it was flagged as changed. The content hash is what two
 * answers to one question share. Every row is filled here, from its body and request id.
 */
export function updateToSchemaVersion22(db: Database): void {
  db.exec(`ALTER TABLE snapshots ADD COLUMN content_sha256 TEXT NOT NULL DEFAULT ''`);
  const update = db.prepare('UPDATE snapshots SET content_sha256 = ? WHERE id = ?');
  const rows = db.prepare('SELECT id, raw, request_id FROM snapshots').raw().iterate() as IterableIterator<[number, string, string | null]>;
  // Written after the walk (SQLite forbids changing a table a running statement reads).
  const hashes: Array<[string, number]> = [];
  for (const [id, raw, requestId] of rows) hashes.push([contentSha256(raw, requestId), id]);
  // The one update a snapshot ever gets: its trigger (version 1) is lifted around it, in the
  // migration's transaction, and put back as it was.
  db.exec('DROP TRIGGER snapshots_are_immutable');
  for (const [hash, id] of hashes) update.run(hash, id);
  db.exec(`CREATE TRIGGER snapshots_are_immutable BEFORE UPDATE ON snapshots
      BEGIN SELECT RAISE(ABORT, 'snapshots are immutable'); END`);
}

/** The SHA-256 of a body with the request id taken out (positions/store/snapshots.ts writes the same for a new row; a migration keeps its own). */
function contentSha256(raw: string, requestId: string | null): string {
  return createHash('sha256')
    .update(requestId ? raw.split(requestId).join('') : raw)
    .digest('hex');
}
