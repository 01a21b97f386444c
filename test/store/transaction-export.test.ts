import { describe, expect, it } from 'vitest';
import type { WritableDB } from '../../src/main/core/store/db.ts';
import { countExportTransactions, exportTransactionRows, openExportReader } from '../../src/main/core/ledger/store/export.ts';
import type { ScopedTimelineFilter } from '../../src/main/core/ledger/store/timeline.ts';
import { upsertTransactions } from '../../src/main/core/transactions/store/transactions.ts';
import { addWallet } from '../../src/main/core/store/wallets.ts';
import { removeWallet } from '../../src/main/core/wallets/remove.ts';
import { transaction as transactionSchema } from '../../src/shared/service/schemas.ts';
import { createDB } from '../support/store.ts';

const A = '0x' + 'a'.repeat(40);
const B = '0x' + 'b'.repeat(40);
const C = '0x' + 'c'.repeat(40);

function insert(db: WritableDB, wallet: string, chain: string, dates: ReadonlyArray<string | null>, start = 0): void {
  const rows = dates.map((date, i) =>
    transactionSchema.parse({
      wallet_id: wallet,
      // The varying part first: the store finds a hash by its first 8 bytes (store/hash-key.ts).
      txn_hash: `0x${(start + i).toString(16).padStart(16, '0')}${'0'.repeat(48)}`,
      date,
      action_type: i % 3 ? 'swap' : 'send',
      details: [{ type: 'in', symbol: i % 2 ? 'USDC' : 'WETH', qty: i, token_cid: null }],
    }),
  );
  db.transaction(() => upsertTransactions(db, wallet, chain, rows)).immediate();
}

describe('the transactions export query', () => {
  it('writes each date as SQLite strftime did, from year 0 to 9999, and null for none', () => {
    const db = createDB();
    addWallet(db, { address: A, chains: ['eth'] });
    let seed = 11;
    const next = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    const first = Date.parse('0000-01-01T00:00:00.000Z');
    const last = Date.parse('9999-12-31T23:59:59.999Z');
    const times = [first, first + 1, -62135596800001, -62135596800000, -1, 1, 999, 1000, 1001, last - 1, last, Date.parse('2024-02-29T23:59:59.999Z')];
    for (let i = 0; i < 20_000; i++) times.push(Math.floor(first + next() * (last - first)));
    // Times around now, where nearly all are, with every millisecond ending.
    for (let i = 0; i < 5_000; i++) times.push(Date.parse('2020-01-01T00:00:00Z') + Math.floor(next() * 2e11));
    insert(db, A, 'eth', [...times.map((t) => new Date(t).toISOString()), null]);
    const expected = db
      .prepare("SELECT CASE WHEN time = 0 THEN NULL ELSE strftime('%Y-%m-%dT%H:%M:%fZ', time / 1000.0, 'unixepoch') END FROM transactions t ORDER BY time, id")
      .pluck()
      .all();
    const actual = [...exportTransactionRows(db, {})].map((r) => r[0]);
    expect(actual).toHaveLength(times.length + 1);
    expect(actual).toEqual(expected);
    expect(actual).toContain(null);
    expect(actual).toContain('0000-01-01T00:00:00.000Z');
  });

  it('counts exactly the rows it lists, for every filter, with rows of a wallet no longer watched still cached', () => {
    const db = createDB();
    addWallet(db, { address: A, chains: ['eth', 'arb'] });
    addWallet(db, { address: B, chains: ['eth'] });
    addWallet(db, { address: C, chains: ['eth'] });
    const dates = (n: number, from: string) => Array.from({ length: n }, (_, i) => new Date(Date.parse(from) + i * 3_600_000).toISOString());
    insert(db, A, 'eth', dates(300, '2025-01-01'), 0);
    insert(db, A, 'arb', [...dates(200, '2025-03-01'), null], 1000);
    insert(db, B, 'eth', dates(150, '2025-02-01'), 2000);
    insert(db, C, 'eth', dates(120, '2025-01-15'), 3000);
    removeWallet(db, C); // its 120 rows stay cached
    const filters: ScopedTimelineFilter[] = [
      {},
      { wallet: A },
      { wallet: C },
      { wallets: [A, B] },
      { wallets: [C], chains: ['eth'] },
      { chains: ['arb'] },
      { actionTypes: ['swap'] },
      { tokens: ['USDC'] },
      { from: '2025-01-05', to: '2025-02-03' },
      { wallet: B, from: '2025-02-02' },
      { search: '0x00000000000003' },
    ];
    for (const filter of filters) {
      const rows = [...exportTransactionRows(db, filter)];
      expect(countExportTransactions(db, filter), JSON.stringify(filter)).toBe(rows.length);
    }
    expect(countExportTransactions(db, {})).toBe(651);
    removeWallet(db, B);
    expect(countExportTransactions(db, {})).toBe(501);
    expect([...exportTransactionRows(db, {})]).toHaveLength(501);
  });

  it('reads on a read-only connection of its own, which cannot write', () => {
    const db = createDB();
    addWallet(db, { address: A, chains: ['eth'] });
    const reader = openExportReader(db);
    try {
      expect(reader.db).not.toBe(db);
      expect(reader.db.readonly).toBe(true);
      expect(() => reader.db.prepare("DELETE FROM wallets WHERE address = 'x'").run()).toThrow(/readonly/i);
    } finally {
      reader.close();
    }
  });
});
