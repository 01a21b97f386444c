/**
 * What a rule's or a filter's list is picked from (`pickers.options`): searched here with a
 * limit, so a cache of a million transactions sends a screen twenty options, never every value.
 * Each search walks an index or a small table:
 * - action types: the distinct values of the action index, one seek each (a loose index scan:
 *   the types are few however many rows there are), matched by key as stored or as the screens
 *   spell them ("Swap", "transfer out");
 * - tokens: the symbols kept per wallet and chain (`transaction_symbols`, migration 9);
 * - wallets: the watched wallets, by label or address;
 * - counterparties: the address book and the watched wallets by name or address, and addresses
 *   seen in the cache by their start (the from and to indexes, walked over that prefix alone);
 * - counterparty names: the address book's names and the wallets' labels.
 */
import type { PickKind, PickOption, PickOptions } from '../../../../shared/contract.ts';
import { displayName, actionTypeKey } from '../../../../shared/display-names.ts';
import type { ReadableDB } from '../../store/handles.ts';
import { all, sql } from '../../store/sql.ts';
import { addressKey } from '../../store/address-key.ts';

export interface PickQuery {
  kind: PickKind;
  search?: string | undefined;
  values?: readonly string[] | undefined;
  limit?: number | undefined;
  /** The scope's wallets (tokens only): every watched wallet's when undefined. */
  wallets?: readonly string[] | undefined;
}

const DEFAULT_LIMIT = 20;
/** A seen address is searched from this many characters on ("0x" and two digits): shorter would list any address. */
const MIN_SEEN_PREFIX = 4;

/** `text` as a LIKE pattern matching it literally (escaped with a backslash). */
const literal = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

export function pickOptions(db: ReadableDB, q: PickQuery): PickOptions {
  const limit = q.limit ?? DEFAULT_LIMIT;
  if (q.values) return { options: exactOptions(db, q.kind, q.values), more: false };
  const search = (q.search ?? '').trim();
  // One more than asked: whether more match, without counting them all.
  const found = SEARCHES[q.kind](db, search, limit + 1, q.wallets);
  return { options: found.slice(0, limit), more: found.length > limit };
}

const SEARCHES: Record<PickKind, (db: ReadableDB, search: string, n: number, wallets?: readonly string[]) => PickOption[]> = {
  actionTypes: (db, search, n) => {
    // As the screens spell it or as stored, in any case: both are one key (actionTypeKey).
    const key = actionTypeKey(search);
    return storedActionTypes(db)
      .filter((v) => actionTypeKey(v).includes(key))
      .slice(0, n)
      .map((v) => ({ value: v, label: displayName(v) }));
  },
  tokens: (db, search, n, wallets) => {
    // The wallets as one JSON parameter (one statement for any number of them), as the timeline's facets.
    const scope = wallets
      ? sql`wallet IN (SELECT value FROM json_each(${JSON.stringify(wallets.map(addressKey))}))`
      : sql`wallet IN (SELECT address FROM wallets)`;
    const rows = all<{ v: string }>(
      db,
      sql`SELECT DISTINCT symbol AS v FROM transaction_symbols
          WHERE ${scope} AND symbol LIKE ${`%${literal(search)}%`} ESCAPE '\\'
          ORDER BY symbol LIKE ${`${literal(search)}%`} ESCAPE '\\' DESC, symbol COLLATE NOCASE, symbol LIMIT ${n}`,
    );
    return rows.map(({ v }) => ({ value: v, label: v }));
  },
  wallets: (db, search, n) => walletsLike(db, search, n),
  counterparties: (db, search, n) => {
    const like = `%${literal(search)}%`;
    const prefix = `${literal(search)}%`;
    const book = all<{ address: string; name: string }>(
      db,
      sql`SELECT address, name FROM counterparties WHERE name LIKE ${like} ESCAPE '\\' OR address LIKE ${prefix} ESCAPE '\\'
          ORDER BY name COLLATE NOCASE, address LIMIT ${n}`,
    ).map((r): PickOption => ({ value: r.address, label: r.name, address: r.address, source: 'book' }));
    const wallets = walletsLike(db, search, n).map((o): PickOption => ({ ...o, source: 'wallet' }));
    const seen = isAddressStart(search) ? seenAddresses(db, search.toLowerCase(), n) : [];
    const out = new Map<string, PickOption>();
    for (const o of [...book, ...wallets, ...seen.map((a): PickOption => ({ value: a, label: a, address: a, source: 'seen' }))]) {
      if (!out.has(o.value)) out.set(o.value, o);
    }
    return [...out.values()].slice(0, n);
  },
  counterpartyNames: (db, search, n) => {
    const rows = all<{ v: string }>(
      db,
      sql`SELECT v FROM (
            SELECT name AS v FROM counterparties WHERE name LIKE ${`%${literal(search)}%`} ESCAPE '\\'
            UNION SELECT label AS v FROM wallets WHERE label != '' AND label LIKE ${`%${literal(search)}%`} ESCAPE '\\'
          ) GROUP BY lower(v) ORDER BY v COLLATE NOCASE LIMIT ${n}`,
    );
    return rows.map(({ v }) => ({ value: v, label: v }));
  },
};

/**
 * Every action type the cache holds, in order: the distinct values of the action index, one seek
 * each (a loose index scan), however many rows share them. The types are few (a service's
 * vocabulary), so they are filtered here, by key, not in SQL.
 */
export function storedActionTypes(db: ReadableDB): string[] {
  return all<{ v: string }>(
    db,
    sql`WITH RECURSIVE types(v) AS (
          SELECT min(action_type) FROM transactions
          UNION ALL
          SELECT (SELECT min(action_type) FROM transactions WHERE action_type > types.v) FROM types WHERE types.v IS NOT NULL
        )
        SELECT v FROM types WHERE v IS NOT NULL`,
  ).map((r) => r.v);
}

function walletsLike(db: ReadableDB, search: string, n: number): PickOption[] {
  const rows = all<{ address: string; label: string }>(
    db,
    sql`SELECT address, label FROM wallets
        WHERE label LIKE ${`%${literal(search)}%`} ESCAPE '\\' OR address LIKE ${`${literal(search)}%`} ESCAPE '\\'
        ORDER BY label = '', label COLLATE NOCASE, address LIMIT ${n}`,
  );
  return rows.map((r) => ({ value: r.address, label: r.label || r.address, address: r.address }));
}

const isAddressStart = (s: string) => s.length >= MIN_SEEN_PREFIX && /^0x[0-9a-f]+$/i.test(s);

/**
 * Addresses seen in the cache starting with `prefix`, from either end of a transaction: each
 * index walked over the prefix's range, one seek per distinct address (as the action types).
 */
function seenAddresses(db: ReadableDB, prefix: string, n: number): string[] {
  const end = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
  const rows = all<{ v: string }>(
    db,
    sql`WITH RECURSIVE
          f(v) AS (
            SELECT min(from_addr) FROM transactions WHERE from_addr >= ${prefix} AND from_addr < ${end}
            UNION ALL SELECT (SELECT min(from_addr) FROM transactions WHERE from_addr > f.v AND from_addr < ${end}) FROM f WHERE f.v IS NOT NULL LIMIT ${n + 1}
          ),
          t(v) AS (
            SELECT min(to_addr) FROM transactions WHERE to_addr >= ${prefix} AND to_addr < ${end}
            UNION ALL SELECT (SELECT min(to_addr) FROM transactions WHERE to_addr > t.v AND to_addr < ${end}) FROM t WHERE t.v IS NOT NULL LIMIT ${n + 1}
          )
        SELECT v FROM f WHERE v IS NOT NULL UNION SELECT v FROM t WHERE v IS NOT NULL ORDER BY v LIMIT ${n}`,
  );
  return rows.map((r) => r.v);
}

/** The options of exactly these values: a stored rule's picks, shown by name. A value the cache does not know is itself. */
function exactOptions(db: ReadableDB, kind: PickKind, values: readonly string[]): PickOption[] {
  if (kind === 'actionTypes') return values.map((v) => ({ value: v, label: displayName(v) }));
  if (kind !== 'wallets' && kind !== 'counterparties') return values.map((v) => ({ value: v, label: v }));
  // As the tables key an address (an EVM one in lower case, another as written).
  const keys = JSON.stringify(values.map(addressKey));
  const named = new Map<string, PickOption>();
  for (const r of all<{ address: string; label: string }>(
    db,
    sql`SELECT address, label FROM wallets WHERE address IN (SELECT value FROM json_each(${keys}))`,
  )) {
    named.set(r.address, {
      value: r.address,
      label: r.label || r.address,
      address: r.address,
      ...(kind === 'counterparties' && { source: 'wallet' as const }),
    });
  }
  if (kind === 'counterparties') {
    // The address book's name comes first: it is the name the rules and the timeline give the address.
    for (const r of all<{ address: string; name: string }>(
      db,
      sql`SELECT address, name FROM counterparties WHERE address IN (SELECT value FROM json_each(${keys}))`,
    )) {
      named.set(r.address, { value: r.address, label: r.name, address: r.address, source: 'book' });
    }
  }
  return values.map((v) => {
    const o = named.get(addressKey(v));
    return o ? { ...o, value: v } : { value: v, label: v };
  });
}
