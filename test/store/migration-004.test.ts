import type BetterSqlite3 from 'better-sqlite3-multiple-ciphers';
import { describe, expect, it } from 'vitest';
import { schemaVersion } from '../../src/main/core/store/db.ts';
import { MIGRATIONS } from '../../src/main/core/store/migrations/index.ts';
import { updateToSchemaVersion4 } from '../../src/main/core/store/migrations/004-newest-first-indexes.ts';
import { timelinePage } from '../../src/main/core/ledger/store/timeline.ts';
import { createDB, updateToVersion } from '../support/store.ts';

/** The version just before migration 4 (its place in MIGRATIONS). */
const BEFORE = MIGRATIONS.indexOf(updateToSchemaVersion4);

const INDEXES = ['transactions_by_time', 'transactions_by_wallet_time', 'transactions_by_action_time', 'transactions_by_from', 'transactions_by_to'];

function keyOrder(db: BetterSqlite3.Database, index: string): string[] {
  return (db.prepare(`SELECT name, desc FROM pragma_index_xinfo(?) WHERE key = 1 ORDER BY seqno`).all(index) as Array<{ name: string; desc: number }>).map(
    (c) => `${c.name}${c.desc ? ' DESC' : ''}`,
  );
}

function seed(db: BetterSqlite3.Database) {
  db.prepare("INSERT INTO wallets (address, chains, created_at) VALUES ('0xw', '[\"eth\"]', 'now')").run();
  const insert = db.prepare(
    "INSERT INTO transactions (wallet, chain, txn_hash, time, from_addr, to_addr, action_type, details) VALUES ('0xw', 'eth', ?, ?, '0xw', '0xc', ?, '[]')",
  );
  for (let i = 0; i < 250; i++) insert.run(`0x${i.toString(16).padStart(64, '0')}`, 1_700_000_000_000 + i * 1000, i % 2 ? 'swap' : 'transfer');
}

describe('migration 4: the timeline indexes in newest-first order', () => {
  it('rebuilds the five time-ordered indexes descending, keeping every row, and the timeline reads as before', () => {
    const db = createDB({ version: BEFORE });
    seed(db);
    expect(keyOrder(db, 'transactions_by_wallet_time')).toEqual(['wallet', 'time', 'id']);
    const before = timelinePage(db, { limit: 1000 }).rows.map((r) => r.id);

    updateToVersion(db, BEFORE + 1);
    expect(schemaVersion(db)).toBe(BEFORE + 1);
    expect(keyOrder(db, 'transactions_by_time')).toEqual(['time DESC', 'id DESC']);
    expect(keyOrder(db, 'transactions_by_wallet_time')).toEqual(['wallet', 'time DESC', 'id DESC']);
    expect(keyOrder(db, 'transactions_by_action_time')).toEqual(['action_type', 'time DESC', 'id DESC']);
    expect(keyOrder(db, 'transactions_by_from')).toEqual(['from_addr', 'time DESC', 'id DESC']);
    expect(keyOrder(db, 'transactions_by_to')).toEqual(['to_addr', 'time DESC', 'id DESC']);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(timelinePage(db, { limit: 1000 }).rows.map((r) => r.id)).toEqual(before);
    // Pages newest first walk the time index, with no sort of all rows.
    const plan = (
      db
        .prepare('EXPLAIN QUERY PLAN SELECT id FROM transactions t WHERE +t.wallet IN (SELECT address FROM wallets) ORDER BY t.time DESC, t.id DESC LIMIT 100')
        .all() as Array<{ detail: string }>
    )
      .map((r) => r.detail)
      .join(' | ');
    expect(plan).toContain('transactions_by_time');
    expect(plan).not.toContain('TEMP B-TREE');
  });

  it('re-measures statistics where the cache had them, and adds none where it had none', () => {
    for (const analysed of [true, false]) {
      const db = createDB({ version: BEFORE });
      seed(db);
      if (analysed) db.exec('ANALYZE');
      updateToVersion(db, BEFORE + 1);
      const stats = db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_stat1'").get()
        ? (db.prepare('SELECT idx FROM sqlite_stat1 WHERE tbl = ?').all('transactions') as Array<{ idx: string }>).map((r) => r.idx)
        : [];
      if (analysed) expect(stats).toEqual(expect.arrayContaining(INDEXES));
      else expect(stats).toEqual([]);
    }
  });
});
