/**
 * The spam lists the user imported (migration 23), each kept whole as checked JSON by its name.
 * An import or a removal records itself in the audit trail (entity `spam-list`: what the list held,
 * never its entries, which the file has).
 */
import { recordEdit } from '../../store/audit.ts';
import type { ReadableDB, WritableDB } from '../../store/handles.ts';
import { all, get, run, sql } from '../../store/sql.ts';

export interface StoredSpamList {
  name: string;
  importedAt: string;
  sha256: string;
  /** The list as checked (spam/lists.ts SpamListV1), JSON. */
  list: string;
  tokens: number;
  addresses: number;
  patterns: number;
}

interface Row {
  name: string;
  imported_at: string;
  sha256: string;
  list: string;
  tokens: number;
  addresses: number;
  patterns: number;
}

const fromRow = (r: Row): StoredSpamList => ({
  name: r.name,
  importedAt: r.imported_at,
  sha256: r.sha256,
  list: r.list,
  tokens: r.tokens,
  addresses: r.addresses,
  patterns: r.patterns,
});

function hasTable(db: ReadableDB): boolean {
  return get<{ n: number }>(db, sql`SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'spam_lists'`)!.n === 1;
}

/** The imported lists, newest first (the first one's entry for a token decides: spam/lists.ts ListBook). */
export function listStoredSpamLists(db: ReadableDB): StoredSpamList[] {
  if (!hasTable(db)) return [];
  return all<Row>(db, sql`SELECT * FROM spam_lists ORDER BY imported_at DESC, name`).map(fromRow);
}

const audited = (l: StoredSpamList | undefined) => l && { name: l.name, sha256: l.sha256, tokens: l.tokens, addresses: l.addresses, patterns: l.patterns };

/**
 * Keeps a list by its name (over one of the same name) and records the edit (at `now`). It was
 * imported now, unless `importedAt` says when (a list a data file carries keeps its time, and so
 * its place among the lists: the newest decides first).
 */
export function putSpamList(db: WritableDB, l: Omit<StoredSpamList, 'importedAt'> & { importedAt?: string }, now: Date): StoredSpamList {
  const before = get<Row>(db, sql`SELECT * FROM spam_lists WHERE name = ${l.name}`);
  const at = l.importedAt ?? now.toISOString();
  run(
    db,
    sql`INSERT INTO spam_lists (name, imported_at, sha256, list, tokens, addresses, patterns)
        VALUES (${l.name}, ${at}, ${l.sha256}, ${l.list}, ${l.tokens}, ${l.addresses}, ${l.patterns})
        ON CONFLICT (name) DO UPDATE SET imported_at = excluded.imported_at, sha256 = excluded.sha256, list = excluded.list,
          tokens = excluded.tokens, addresses = excluded.addresses, patterns = excluded.patterns`,
  );
  const saved = { ...l, importedAt: at };
  recordEdit(
    db,
    { entity: 'spam-list', key: l.name, action: before ? 'update' : 'create', before: audited(before && fromRow(before)) ?? null, after: audited(saved) },
    now,
  );
  return saved;
}

export function deleteSpamList(db: WritableDB, name: string, now: Date): boolean {
  const before = get<Row>(db, sql`SELECT * FROM spam_lists WHERE name = ${name}`);
  if (!before) return false;
  run(db, sql`DELETE FROM spam_lists WHERE name = ${name}`);
  recordEdit(db, { entity: 'spam-list', key: name, action: 'delete', before: audited(fromRow(before)), after: null }, now);
  return true;
}
