/**
 * The address book's table (migration 17). SQL only: what an entry may hold is checked by
 * core/counterparties/entry.ts before it gets here.
 */
import type { Counterparty } from '../../../../shared/model.ts';
import type { ReadableDB, WritableDB } from '../../store/db.ts';
import { addressKey } from '../../store/address-key.ts';
import { all, get, run, sql } from '../../store/sql.ts';
import { recordEdit } from '../../store/audit.ts';

interface Row {
  address: string;
  name: string;
  tags: string;
  ours: number;
  chains: string;
  note: string;
  created_at: string;
  updated_at: string;
}

const fromRow = (r: Row): Counterparty => ({
  address: r.address,
  name: r.name,
  tags: JSON.parse(r.tags) as string[],
  ours: r.ours === 1,
  chains: JSON.parse(r.chains) as string[],
  note: r.note,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** Whether the table is there (a cache an older version left, opened read-only, may lack it). */
function hasTable(db: ReadableDB): boolean {
  return get<{ n: number }>(db, sql`SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'counterparties'`)!.n === 1;
}

export function listCounterparties(db: ReadableDB): Counterparty[] {
  if (!hasTable(db)) return [];
  return all<Row>(db, sql`SELECT * FROM counterparties ORDER BY name COLLATE NOCASE, address`).map(fromRow);
}

/** The entry of an address, written in any case for an EVM address (as wallets are found). */
export function getCounterparty(db: ReadableDB, address: string): Counterparty | null {
  const row = get<Row>(db, sql`SELECT * FROM counterparties WHERE address = ${addressKey(address)}`);
  return row ? fromRow(row) : null;
}

/** Writes an entry whole, over any entry of its address (its first `createdAt` kept). */
export function putCounterparty(db: WritableDB, c: Counterparty): void {
  run(
    db,
    sql`INSERT INTO counterparties (address, name, tags, ours, chains, note, created_at, updated_at)
        VALUES (${c.address}, ${c.name}, ${JSON.stringify(c.tags)}, ${c.ours ? 1 : 0}, ${JSON.stringify(c.chains)}, ${c.note}, ${c.createdAt}, ${c.updatedAt})
        ON CONFLICT (address) DO UPDATE SET name = excluded.name, tags = excluded.tags, ours = excluded.ours,
          chains = excluded.chains, note = excluded.note, updated_at = excluded.updated_at`,
  );
}

export function deleteCounterparty(db: WritableDB, address: string): boolean {
  return run(db, sql`DELETE FROM counterparties WHERE address = ${addressKey(address)}`).changes > 0;
}

/** An entry as the user set it: what the audit trail keeps (no dates). */
export type CounterpartyEntry = Omit<Counterparty, 'createdAt' | 'updatedAt'>;
const audited = (c: Counterparty | null): CounterpartyEntry | null =>
  c && { address: c.address, name: c.name, tags: c.tags, ours: c.ours, chains: c.chains, note: c.note };

/**
 * Writes an entry (checked by counterparties/entry.ts) over any of its address, and records the
 * edit in the audit trail; the caller runs it inside its transaction, so both land or neither.
 */
export function writeCounterparty(db: WritableDB, entry: CounterpartyEntry, now: Date): Counterparty {
  const before = getCounterparty(db, entry.address);
  const at = now.toISOString();
  const saved: Counterparty = { ...entry, createdAt: before?.createdAt ?? at, updatedAt: at };
  putCounterparty(db, saved);
  recordEdit(db, { entity: 'counterparty', key: entry.address, action: before ? 'update' : 'create', before: audited(before), after: audited(saved) }, now);
  return saved;
}

/** Removes an entry and records it; false when the address has none. */
export function eraseCounterparty(db: WritableDB, address: string, now: Date): boolean {
  const before = getCounterparty(db, address);
  if (!before) return false;
  deleteCounterparty(db, before.address);
  recordEdit(db, { entity: 'counterparty', key: before.address, action: 'delete', before: audited(before), after: null }, now);
  return true;
}

/**
 * The addresses whose name (an entry's, or a watched wallet's label) contains `text`, any case:
 * what a timeline search by name stands for. At most `limit`, so a one-letter name cannot turn
 * a search into thousands of index walks.
 */
export function addressesNamed(db: ReadableDB, text: string, limit = 200): string[] {
  const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const book = hasTable(db)
    ? all<{ address: string }>(db, sql`SELECT address FROM counterparties WHERE name LIKE ${pattern} ESCAPE '\\' ORDER BY address LIMIT ${limit}`)
    : [];
  const wallets = all<{ address: string }>(
    db,
    sql`SELECT address FROM wallets WHERE label != '' AND label LIKE ${pattern} ESCAPE '\\' ORDER BY address LIMIT ${limit}`,
  );
  return [...new Set([...book, ...wallets].map((r) => r.address))].slice(0, limit);
}
