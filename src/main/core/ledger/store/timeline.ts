import type { ReadableDB } from '../../store/db.ts';
import { checkDate, ValidationError } from '../../store/validation.ts';
import { addressKey } from '../../store/address-key.ts';
import { incompleteReasons, storedText } from '../../transactions/index.ts';
import { owedSeamsOf } from '../../transactions/index.ts';
import type { TimelineFilter, TimelineQuery } from '../../../../shared/contract.ts';
import type { TransferDetail, TimelineRow, TimelinePage } from '../../../../shared/model.ts';
import { hashKeyRanges } from '../../store/hash-key.ts';
import { idsWhereKey } from '../../transactions/index.ts';
import { all, sql, sqlJoin, type SqlQuery, value, prepare } from '../../store/sql.ts';
import { annotationsForRows } from './annotated.ts';
import { addressesNamed } from '../../counterparties/index.ts';
import { actionTypeKey } from '../../../../shared/display-names.ts';
import { storedActionTypes } from './options.ts';

/**
 * A filter as the store applies it: a group's members (`wallets`, resolved by the core) may
 * stand for `wallet`; `named`, the addresses a search by name stands for (withNamedSearch).
 */
export type ScopedTimelineFilter = TimelineFilter & { wallets?: readonly string[]; named?: readonly string[] };

/**
 * A filter as asked, as the store applies it: action types as the screens spell them stand for
 * the stored ones (withStoredActionTypes), and a search that is a name in the address book (or a
 * watched wallet's label) stands for that name's addresses: the transactions from or to any of
 * them. Any other search is a hash or an address, as before.
 */
export function withNamedSearch<F extends ScopedTimelineFilter>(db: ReadableDB, given: F): F {
  const filter = withStoredActionTypes(db, given);
  const text = filter.search?.trim();
  if (!text) return filter;
  const named = addressesNamed(db, text);
  if (!named.length) return filter;
  const { search: _search, ...rest } = filter;
  return { ...rest, named } as unknown as F;
}

/**
 * Action types as the screens spell them ("Swap", "Transfer out") or in any case stand for the
 * values stored (swap, transfer_out), as a rule's do (issue 39, defect 3): a filter typed in the
 * URL or on the command line as shown matches what the picker's choice does. The stored types are
 * read by a loose index scan (a seek per distinct type), so the filter stays an index term.
 */
function withStoredActionTypes<F extends ScopedTimelineFilter>(db: ReadableDB, filter: F): F {
  if (!filter.actionTypes?.length) return filter;
  const byKey = new Map<string, string[]>();
  for (const v of storedActionTypes(db)) byKey.set(actionTypeKey(v), [...(byKey.get(actionTypeKey(v)) ?? []), v]);
  const actionTypes = [...new Set(filter.actionTypes.flatMap((a) => byKey.get(actionTypeKey(a)) ?? [a]))];
  return { ...filter, actionTypes };
}

const MAX_LIMIT = 1000;

interface Row {
  id: number;
  wallet: string;
  chain: string;
  txn_hash: string;
  time: number;
  block: number | null;
  from_addr: string | null;
  to_addr: string | null;
  from_type: string | null;
  to_type: string | null;
  txn_fee: number | null;
  gas_fee: number | null;
  action_type: string | null;
  method_hex: string | null;
  protocol_id: string | null;
  status: number | null;
  details: string;
}

export function encodeCursor(time: number, id: number): string {
  return Buffer.from(`${time}:${id}`).toString('base64url');
}

export function decodeCursor(cursor: string): { time: number; id: number } {
  const m = /^(-?\d+):(\d+)$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!m) throw new ValidationError('cursor', 'The timeline position is not valid; reload the timeline.');
  return { time: Number(m[1]), id: Number(m[2]) };
}

/** The smallest string greater than every string starting with `prefix`. */
function prefixEnd(prefix: string): string {
  return prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
}

/**
 * Rows that moved any of these token symbols, read from the row's `tokens` column (a JSON
 * array written by tokensOf in transactions.ts; on the walking indexes since migration 9, so
 * the test needs no row seek). A symbol is matched by its exact JSON text between element
 * separators: in JSON.stringify's output a quote inside a string is always escaped, so `,"X",`
 * can only be a whole element, and two different symbols never share a text. Not json_each:
 * that would parse every row walked.
 */
function tokenFilter(tokens: readonly string[], params: Record<string, unknown>): string {
  const terms = tokens.map((symbol, i) => {
    params[`token${i}`] = `,${JSON.stringify(storedText(symbol))},`;
    return `instr(',' || substr(t.tokens, 2, length(t.tokens) - 2) || ',', @token${i}) > 0`;
  });
  return `(t.tokens IS NOT NULL AND (${terms.join(' OR ')}))`;
}

/**
 * Rows in these categories (a manual choice, else a rule's; names in any case), or with none
 * (`uncategorised`), or either. A lookup by the annotations' key per row walked; only a filter
 * that names categories adds it, so a cache an older version left (no annotations) reads as before.
 */
function categoryFilter(filter: TimelineFilter, params: Record<string, unknown>): string {
  const annotated = 'a.wallet = t.wallet AND a.chain = t.chain AND a.txn_hash = t.txn_hash';
  const terms: string[] = [];
  if (filter.categories?.length) {
    params['categories'] = JSON.stringify(filter.categories.map((c) => c.trim().toLowerCase()));
    terms.push(`EXISTS (SELECT 1 FROM txn_annotations a JOIN categories c ON c.id = coalesce(a.manual_category, a.rule_category)
      WHERE ${annotated} AND lower(c.name) IN (SELECT value FROM json_each(@categories)))`);
  }
  if (filter.uncategorised)
    terms.push(`NOT EXISTS (SELECT 1 FROM txn_annotations a WHERE ${annotated} AND coalesce(a.manual_category, a.rule_category) IS NOT NULL)`);
  return `(${terms.join(' OR ')})`;
}

const FULL_ADDRESS = /^0x[0-9a-f]{40}$/;
const MIN_SEARCH = 6;

/**
 * WHERE clause and parameters for a filter; shared by the timeline and the CSV export.
 * `allWatched`: every cached row is a watched wallet's (unwatchedWallets found none), so every
 * wallet's rows need no wallet term (a table seek per row walked on an index without the wallet).
 */
export function timelineWhere(
  filter: ScopedTimelineFilter,
  options: { searchAs?: 'from' | 'to'; allWatched?: boolean } = {},
): { sql: string; params: Record<string, unknown> } {
  const where: string[] = [];
  const params: Record<string, unknown> = {};
  const list = (name: string, column: string, values: readonly unknown[] | undefined) => {
    if (!values?.length) return;
    const names = values.map((v, i) => {
      params[`${name}${i}`] = v;
      return `@${name}${i}`;
    });
    where.push(`${column} IN (${names.join(', ')})`);
  };
  if (filter.wallet) {
    where.push('t.wallet = @wallet');
    params['wallet'] = addressKey(filter.wallet);
  } else if (filter.wallets) {
    // A group's members: checked along the time-index walk, as the all-wallets term is.
    where.push('+t.wallet IN (SELECT value FROM json_each(@wallets))');
    params['wallets'] = JSON.stringify(filter.wallets.map(addressKey));
  } else if (!options.allWatched) {
    // Unary + keeps the planner off the wallet index for this term (it would then sort every
    // row by time): all wallets walk the time index, and this only drops removed wallets' rows.
    where.push('+t.wallet IN (SELECT address FROM wallets)');
  }
  list('chain', 't.chain', filter.chains);
  // One wallet's rows are walked on its own index, which carries the filter columns (migration
  // 8), so the action type is checked there. Unary + keeps the planner off the action index:
  // with statistics it preferred walking every wallet's swaps of a year (7,000 row seeks for
  // one wallet's 100) to this wallet's rows, read from index pages alone.
  list('action', filter.wallet ? '+t.action_type' : 't.action_type', filter.actionTypes);
  list('protocol', 't.protocol_id', filter.protocols);
  list('status', 't.status', filter.statuses);
  if (filter.tokens?.length) where.push(tokenFilter(filter.tokens, params));
  if (filter.from) {
    params['fromMs'] = Date.parse(`${checkDate('from', filter.from)}T00:00:00Z`);
    where.push('t.time >= @fromMs');
  }
  if (filter.to) {
    params['toMs'] = Date.parse(`${checkDate('to', filter.to)}T00:00:00Z`) + 86_400_000;
    where.push('t.time < @toMs');
  }
  if (filter.categories?.length || filter.uncategorised) where.push(categoryFilter(filter, params));
  if (filter.from && filter.to && filter.from > filter.to) throw new ValidationError('to', 'The end date is before the start date.');
  if (filter.named) {
    // Two index walks (from, to) over a short list of addresses.
    params['named'] = JSON.stringify(filter.named);
    where.push('(t.from_addr IN (SELECT value FROM json_each(@named)) OR t.to_addr IN (SELECT value FROM json_each(@named)))');
  }
  const search = filter.search?.trim().toLowerCase();
  if (search) {
    // Reached only when no name in the address book (or wallet label) holds the text (withNamedSearch).
    if (!/^[\x21-\x7e]{1,128}$/.test(search))
      throw new ValidationError('search', 'Search for a transaction hash or an address, or a name in the address book (none holds this text).');
    if (search.length < MIN_SEARCH)
      throw new ValidationError(
        'search',
        `Type at least ${MIN_SEARCH} characters of a hash or an address, or part of a name in the address book (none holds this text).`,
      );
    params['s'] = search;
    if (options.searchAs) {
      // One side of a full-address search (see timelinePage): an index walk in time order.
      where.push(options.searchAs === 'from' ? 't.from_addr = @s' : 't.to_addr = @s');
    } else {
      // Prefix ranges, so each branch of the OR walks an index; a hash by its key's ranges
      // in both levels of hash keys (see hash-key.ts, hash-levels.ts), each row checked
      // against the full hash.
      params['sEnd'] = prefixEnd(search);
      const keys = hashKeyRanges(search);
      const hash = 't.txn_hash >= @s AND t.txn_hash < @sEnd';
      const branches = [`(t.id IN (${idsWhereKey('key >= @ktLo AND key < @ktHi')}) AND ${hash})`];
      params['ktLo'] = keys.text.lo;
      params['ktHi'] = keys.text.hi;
      if (keys.blob) {
        branches.push(`(t.id IN (${idsWhereKey('key >= @kbLo AND key <= @kbHi')}) AND ${hash})`);
        params['kbLo'] = keys.blob.lo;
        params['kbHi'] = keys.blob.hi;
      }
      branches.push('(t.from_addr >= @s AND t.from_addr < @sEnd)', '(t.to_addr >= @s AND t.to_addr < @sEnd)');
      where.push(`(${branches.join(' OR ')})`);
    }
  }
  return { sql: where.join(' AND ') || '1', params };
}

/** A full address is searched as two ordered index walks (from, to) merged, not a scan and sort. */
export function isFullAddressSearch(filter: TimelineFilter): boolean {
  return FULL_ADDRESS.test(filter.search?.trim().toLowerCase() ?? '');
}

/**
 * A row's transfers; none when they cannot be read (the reconciliation counts such a row as
 * unreadable and says so), so one row does not fail a page, a report or a pack.
 */
function transfersOf(details: string): TransferDetail[] {
  try {
    const parsed = JSON.parse(details) as unknown;
    return Array.isArray(parsed) ? (parsed as TransferDetail[]) : [];
  } catch {
    return [];
  }
}

export function toTimelineRow(r: Row): TimelineRow {
  return {
    id: r.id,
    wallet: r.wallet,
    chain: r.chain,
    txnHash: r.txn_hash,
    date: r.time ? new Date(r.time).toISOString() : null,
    block: r.block,
    from: r.from_addr,
    to: r.to_addr,
    fromType: r.from_type,
    toType: r.to_type,
    txnFee: r.txn_fee,
    gasFee: r.gas_fee,
    actionType: r.action_type,
    methodHex: r.method_hex,
    protocolId: r.protocol_id,
    status: r.status,
    details: transfersOf(r.details),
    restated: null,
    category: null,
    note: null,
  };
}

export const TIMELINE_COLUMNS =
  't.id, t.wallet, t.chain, t.txn_hash, t.time, t.block, t.from_addr, t.to_addr, t.from_type, t.to_type, t.txn_fee, t.gas_fee, t.action_type, t.method_hex, t.protocol_id, t.status, t.details';

/**
 * The change log's newest word on each row of a page (restated after first seen), by the log's
 * hash index: one query per page, none when the log is empty (or, in a cache an older version
 * left, not there yet).
 */
function markRestated(db: ReadableDB, page: TimelineRow[]): void {
  if (!page.length) return;
  const hasLog = value<number>(db, sql`SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'transaction_changes'`) === 1;
  if (!hasLog || value<number>(db, sql`SELECT EXISTS (SELECT 1 FROM transaction_changes)`) !== 1) return;
  const kinds = new Map<string, 'late' | 'changed'>();
  for (const c of all<{ wallet: string; chain: string; txn_hash: string; kind: 'late' | 'changed' }>(
    db,
    sql`SELECT wallet, chain, txn_hash, kind FROM transaction_changes
        WHERE kind != 'removed' AND txn_hash IN (${sqlJoin([...new Set(page.map((r) => r.txnHash))])}) ORDER BY id`,
  ))
    kinds.set(`${c.wallet}|${c.chain}|${c.txn_hash}`, c.kind);
  for (const r of page) r.restated = kinds.get(`${r.wallet}|${r.chain}|${r.txnHash}`) ?? null;
}

/** Each row's category and note (annotated.ts), by one query per page. */
export function markAnnotations(db: ReadableDB, page: TimelineRow[]): void {
  const found = annotationsForRows(db, page);
  if (!found.size) return;
  for (const r of page) {
    const a = found.get(`${r.wallet}|${r.chain}|${r.txnHash}`);
    if (a) {
      r.category = a.category;
      r.note = a.note;
    }
  }
}

/**
 * A page of the timeline, newest first. Keyset pagination on (time, id): a page costs an
 * index walk whatever its depth, and rows inserted meanwhile never shift later pages. `skip`
 * passes over that many rows first (an index step each): the timeline reads a row far down its
 * list from its day's cursor (`timeline.days`), passing over at most that day's rows before it.
 */
export function timelinePage(db: ReadableDB, asked: TimelineQuery & { wallets?: readonly string[] }): TimelinePage {
  const query = withNamedSearch(db, asked);
  const limit = Math.min(Math.max(1, Math.floor(query.limit ?? 100)), MAX_LIMIT);
  const cursor = query.cursor ? decodeCursor(query.cursor) : null;
  // Rows passed over after the cursor: how the timeline reads a row far into a day (timeline.days).
  const skip = Math.max(0, Math.floor(query.skip ?? 0));
  const branch = (searchAs?: 'from' | 'to') => {
    const { sql, params } = timelineWhere(query, searchAs ? { searchAs } : {});
    if (cursor) {
      params['ct'] = cursor.time;
      params['cid'] = cursor.id;
    }
    params['limit'] = limit + 1;
    params['skip'] = skip;
    const keyset = cursor ? ' AND (t.time, t.id) < (@ct, @cid)' : '';
    // A branch of the merged search reads as far as the page's last row (the rows passed over too).
    const tail = searchAs ? ' LIMIT @limit + @skip' : ' LIMIT @limit OFFSET @skip';
    return { sql: `SELECT ${TIMELINE_COLUMNS} FROM transactions t WHERE ${sql}${keyset} ORDER BY t.time DESC, t.id DESC${tail}`, params };
  };
  let rows: Row[];
  if (isFullAddressSearch(query)) {
    const from = branch('from');
    const to = branch('to');
    rows = prepare(db, `SELECT * FROM (${from.sql}) UNION SELECT * FROM (${to.sql}) ORDER BY time DESC, id DESC LIMIT @limit OFFSET @skip`).all({
      ...from.params,
      ...to.params,
    }) as Row[];
  } else {
    const one = branch();
    rows = prepare(db, one.sql).all(one.params) as Row[];
  }
  const more = rows.length > limit;
  const page = rows.slice(0, limit).map(toTimelineRow);
  markRestated(db, page);
  markAnnotations(db, page);
  const last = page.at(-1);
  const sync = syncState(db, query.wallet ? [query.wallet] : query.wallets);
  return { rows: page, nextCursor: more && last ? encodeCursor(Date.parse(last.date ?? '') || 0, last.id) : null, ...sync };
}

/** When the scope's transactions were synced and whether they are proved complete: one wallet, a group's members, or every watched wallet. */
function syncState(
  db: ReadableDB,
  wallets: readonly string[] | undefined,
): { syncedAt: string | null; incomplete: boolean; interrupted: boolean; incompleteReasons: string[] } {
  const scope = wallets ? JSON.stringify(wallets.map(addressKey)) : null;
  const row = prepare(
    db,
    `SELECT max(updated_at) AS synced_at, sum(state = 'incomplete') AS incomplete, sum(state = 'in_progress') AS interrupted FROM txn_sync_ranges
       WHERE (@scope IS NULL AND wallet IN (SELECT address FROM wallets)) OR wallet IN (SELECT value FROM json_each(@scope))`,
  ).get({ scope }) as { synced_at: string | null; incomplete: number | null; interrupted: number | null };
  // A seam owed a re-read leaves the history around it unproved too (transactions/store/seams.ts).
  const owed = owedSeamsOf(db, wallets).length;
  const reasons = (row.incomplete ?? 0) + (row.interrupted ?? 0) + owed > 0 ? incompleteReasons(db, wallets) : [];
  return { syncedAt: row.synced_at, incomplete: (row.incomplete ?? 0) + owed > 0, interrupted: (row.interrupted ?? 0) > 0, incompleteReasons: reasons };
}

const FACET_COLUMNS = { action_type: sql`action_type`, protocol_id: sql`protocol_id` };

/** Distinct action types, protocols and token symbols of some wallets' transactions (one, a group's members), or every watched wallet's. */
export function timelineFacetValues(db: ReadableDB, wallets?: readonly string[]): { actionTypes: string[]; protocols: string[]; tokens: string[] } {
  // The wallets as one JSON parameter: one statement for any number of them (none too).
  const scope = wallets
    ? sql`wallet IN (SELECT value FROM json_each(${JSON.stringify(wallets.map(addressKey))}))`
    : sql`wallet IN (SELECT address FROM wallets)`;
  const values = (q: SqlQuery) => all<{ v: string }>(db, q).map((r) => r.v);
  const distinct = (column: keyof typeof FACET_COLUMNS) => {
    const c = FACET_COLUMNS[column];
    return values(sql`SELECT DISTINCT ${c} AS v FROM transactions WHERE ${scope} AND ${c} IS NOT NULL ORDER BY 1`);
  };
  // The symbols kept per wallet and chain with each page written (migration 9), in the same scope.
  const tokens = values(sql`SELECT DISTINCT symbol AS v FROM transaction_symbols WHERE ${scope} ORDER BY 1`);
  return { actionTypes: distinct('action_type'), protocols: distinct('protocol_id'), tokens };
}
