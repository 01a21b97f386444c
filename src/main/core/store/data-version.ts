import type { ReadableDB } from './handles.ts';
import { sql, value } from './sql.ts';

/**
 * A mark that moves whenever anything is written to the cache file, by this connection or
 * another, for whoever keeps something read from it (the portfolio's kept views): the
 * connection's `total_changes()` (every row it inserted, updated or deleted, committed or not)
 * and `PRAGMA data_version` (moved by another connection's commit: the sync's write worker,
 * another process). Equal marks mean nothing was written in between.
 */
export function dataVersion(db: ReadableDB): string {
  const mine = value<number>(db, sql`SELECT total_changes()`);
  const others = db.pragma('data_version', { simple: true }) as number;
  return `${mine}:${others}`;
}
