import { describe, expect, it } from 'vitest';
import { schemaVersion, type WritableDB } from '../../src/main/core/store/db.ts';
import { MIGRATIONS, SCHEMA_VERSION } from '../../src/main/core/store/migrations/index.ts';
import { updateToSchemaVersion9 } from '../../src/main/core/store/migrations/009-tokens-in-row.ts';
import { timelineFacetValues } from '../../src/main/core/ledger/store/timeline.ts';
import { timelinePage } from '../../src/main/core/ledger/store/timeline.ts';
import { upsertTransactions } from '../../src/main/core/transactions/store/transactions.ts';
import { removeWallet } from '../../src/main/core/wallets/remove.ts';
import type { Transaction } from '../../src/shared/service/schemas.ts';
import { createDB, updateToVersion } from '../support/store.ts';
import { transactionRow } from '../support/transactions.ts';

const W = '0x00000000000000000000000000000000000000aa';
const W2 = '0x00000000000000000000000000000000000000bb';

/**
 * Symbols a hostile or careless token contract may carry, each a near miss of another: the
 * filter must match each exactly (never a prefix, a part of a list, or its JSON escaping).
 */
const ODD = [
  'USDC',
  'USDC.e',
  'usdc',
  'A,B',
  'A',
  'B',
  '"A"',
  'A\\',
  '\\',
  ',"A",',
  'A"',
  '[A]',
  'tab\there',
  'line\nbreak',
  '\u0001',
  'Ünï',
  '💵',
  '\ud800',
  '\udfff',
  ' A',
];

function txn(i: number, symbols: Array<string | null>, wallet = W): Transaction {
  return transactionRow({
    wallet_id: wallet,
    txn_hash: `0x${(i + 1).toString(16).padStart(64, '0')}`,
    block: i,
    date: new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString(),
    details: symbols.map((symbol) => ({ token_cid: `0x${symbol ?? 'none'}`, symbol, type: 'in', qty: 1, price: null, value: null })),
  });
}

const wallets = (db: WritableDB) =>
  db.prepare("INSERT INTO wallets (address, chains, created_at) VALUES (?, '[\"eth\"]', 'now'), (?, '[\"eth\"]', 'now')").run(W, W2);

/** Every row's symbol lists: one odd symbol, two, a repeat, none, a null symbol. */
const histories = (): Array<Array<string | null>> => [
  ...ODD.map((s) => [s]),
  ...ODD.map((s, i) => [s, ODD[(i + 7) % ODD.length]!]),
  ['A', 'A', 'B'],
  [],
  [null],
  [null, 'B'],
];

/**
 * The rows a filter on these symbols should give, read from the transfers themselves. SQLite
 * text is UTF-8: a lone surrogate is kept as U+FFFD there (in `details` too), so two symbols
 * that differ only by one are one symbol once cached, and found as one.
 */
const asStored = (s: string) => s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
const expected = (rows: Array<Array<string | null>>, wanted: readonly string[]) =>
  rows
    .map((symbols, i) => ({ i, symbols }))
    .filter(({ symbols }) => symbols.some((s) => s && wanted.map(asStored).includes(asStored(s))))
    .map(({ i }) => `0x${(i + 1).toString(16).padStart(64, '0')}`)
    .sort();

const found = (db: WritableDB, tokens: string[], wallet?: string) =>
  timelinePage(db, { limit: 1000, tokens, ...(wallet ? { wallet } : {}) })
    .rows.map((r) => r.txnHash)
    .sort();

describe('token symbols in the row (migration 9)', () => {
  it('the token filter matches each symbol exactly, whatever characters it holds, alone and in lists', () => {
    const db = createDB();
    wallets(db);
    const rows = histories();
    upsertTransactions(
      db,
      W,
      'eth',
      rows.map((s, i) => txn(i, s)),
    );
    for (const s of ODD) expect(found(db, [s]), JSON.stringify(s)).toEqual(expected(rows, [s]));
    expect(found(db, ['A', 'USDC.e'])).toEqual(expected(rows, ['A', 'USDC.e']));
    expect(found(db, ['nothing'])).toEqual([]);
    // One wallet's rows walk its own index, which carries the column too.
    expect(found(db, ['"A"'], W)).toEqual(expected(rows, ['"A"']));
  });

  it('an existing cache keeps every token: the column is filled from the old table, the symbols listed, the table dropped', () => {
    const db = createDB({ version: MIGRATIONS.indexOf(updateToSchemaVersion9) });
    wallets(db);
    // As the store of version 8 wrote them: one token row per distinct symbol of a transaction.
    const rows = histories();
    const insert = db.prepare("INSERT INTO transactions (id, wallet, chain, txn_hash, time, status, details) VALUES (?, ?, 'eth', ?, ?, 1, '[]')");
    const token = db.prepare('INSERT OR IGNORE INTO transaction_tokens (txn_id, symbol, token_cid) VALUES (?, ?, ?)');
    rows.forEach((symbols, i) => {
      const t = txn(i, symbols, i % 3 ? W : W2);
      insert.run(i + 1, t.wallet_id, t.txn_hash, Date.parse(t.date!));
      for (const s of symbols) if (s) token.run(i + 1, s, null);
    });
    updateToVersion(db, SCHEMA_VERSION);
    expect(schemaVersion(db)).toBe(SCHEMA_VERSION);
    expect(db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'transaction_tokens'").get()).toBeUndefined();
    for (const s of ODD) expect(found(db, [s]), JSON.stringify(s)).toEqual(expected(rows, [s]));
    // The filter lists: per wallet, from the old rows.
    const symbolsOf = (w: string) =>
      [
        ...new Set(
          rows
            .flatMap((symbols, i) => ((i % 3 ? W : W2) === w ? symbols : []))
            .filter((s): s is string => !!s)
            .map(asStored),
        ),
      ].sort();
    const sorted = (xs: string[]) => [...xs].sort();
    expect(sorted(timelineFacetValues(db, [W]).tokens)).toEqual(symbolsOf(W));
    expect(sorted(timelineFacetValues(db, [W2]).tokens)).toEqual(symbolsOf(W2));
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
  });

  it("the filter lists offer the symbols of the wallets in scope only, and a purged wallet's go with it", () => {
    const db = createDB();
    wallets(db);
    upsertTransactions(db, W, 'eth', [txn(1, ['AAA', 'BBB'])]);
    upsertTransactions(db, W2, 'eth', [txn(2, ['CCC'], W2)]);
    expect(timelineFacetValues(db, [W]).tokens).toEqual(['AAA', 'BBB']);
    expect(timelineFacetValues(db, [W2]).tokens).toEqual(['CCC']);
    expect(timelineFacetValues(db).tokens).toEqual(['AAA', 'BBB', 'CCC']);
    removeWallet(db, W2, { purge: true });
    expect(timelineFacetValues(db).tokens).toEqual(['AAA', 'BBB']);
  });

  it('a symbol offered in the filter list finds its rows, a broken one (lone surrogate) too', () => {
    const db = createDB();
    wallets(db);
    const rows = histories();
    upsertTransactions(
      db,
      W,
      'eth',
      rows.map((s, i) => txn(i, s)),
    );
    const offered = timelineFacetValues(db, [W]).tokens;
    expect(offered).toContain('\ufffd');
    for (const s of offered) expect(found(db, [s]).length, JSON.stringify(s)).toBeGreaterThan(0);
  });

  it('a row read again with other transfers has its tokens replaced', () => {
    const db = createDB();
    wallets(db);
    upsertTransactions(db, W, 'eth', [txn(1, ['AAA'])]);
    upsertTransactions(db, W, 'eth', [txn(1, ['BBB'])]);
    expect(found(db, ['AAA'])).toEqual([]);
    expect(found(db, ['BBB'])).toHaveLength(1);
  });
});
