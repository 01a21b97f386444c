import type BetterSqlite3 from 'better-sqlite3-multiple-ciphers';
import { describe, expect, it } from 'vitest';
import { schemaVersion } from '../../src/main/core/store/db.ts';
import { MIGRATIONS } from '../../src/main/core/store/migrations/index.ts';
import { updateToSchemaVersion8 } from '../../src/main/core/store/migrations/008-filter-columns.ts';
import { timelinePage } from '../../src/main/core/ledger/store/timeline.ts';
import { createDB, updateToVersion } from '../support/store.ts';

/** The version just before migration 8 (its place in MIGRATIONS). */
const BEFORE = MIGRATIONS.indexOf(updateToSchemaVersion8);

const columns = (db: BetterSqlite3.Database, index: string) =>
  (db.prepare('SELECT name, desc FROM pragma_index_xinfo(?) WHERE key = 1 ORDER BY seqno').all(index) as Array<{ name: string; desc: number }>).map(
    (c) => `${c.name}${c.desc ? ' DESC' : ''}`,
  );

function seed(db: BetterSqlite3.Database) {
  db.prepare("INSERT INTO wallets (address, chains, created_at) VALUES ('0xw', '[\"eth\",\"arb\"]', 'now')").run();
  const insert = db.prepare(
    "INSERT INTO transactions (wallet, chain, txn_hash, time, from_addr, to_addr, action_type, protocol_id, status, details) VALUES ('0xw', ?, ?, ?, '0xw', '0xc', ?, ?, ?, '[]')",
  );
  for (let i = 0; i < 300; i++)
    insert.run(
      i % 3 ? 'eth' : 'arb',
      `0x${i.toString(16).padStart(64, '0')}`,
      1_700_000_000_000 + i * 1000,
      i % 2 ? 'swap' : 'transfer',
      i % 5 ? 'wallet' : 'lido',
      i % 7 ? 1 : 0,
    );
}

const plan = (db: BetterSqlite3.Database, sql: string) =>
  (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as Array<{ detail: string }>).map((r) => r.detail).join(' | ');

describe('migration 8: the timeline walks carry the filter columns', () => {
  it('rebuilds the time and wallet indexes with the filter columns after their key, keeping rows and pages', () => {
    for (const analysed of [false, true]) {
      const db = createDB({ version: BEFORE });
      seed(db);
      if (analysed) db.exec('ANALYZE');
      const q = { wallet: '0xw', chains: ['arb'], actionTypes: ['swap'], statuses: [1], limit: 1000 };
      const before = [timelinePage(db, { limit: 1000 }).rows.map((r) => r.id), timelinePage(db, q).rows.map((r) => r.id)];
      updateToVersion(db, BEFORE + 1);
      expect(schemaVersion(db)).toBe(BEFORE + 1);
      expect(columns(db, 'transactions_by_time')).toEqual(['time DESC', 'id DESC', 'chain', 'action_type', 'status', 'protocol_id']);
      expect(columns(db, 'transactions_by_wallet_time')).toEqual(['wallet', 'time DESC', 'id DESC', 'chain', 'action_type', 'status', 'protocol_id']);
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect([timelinePage(db, { limit: 1000 }).rows.map((r) => r.id), timelinePage(db, q).rows.map((r) => r.id)]).toEqual(before);
      expect(before[1]!.length).toBeGreaterThan(0);
      // Statistics re-measured where there were some, none added where there were none.
      const stats = db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_stat1'").get()
        ? (db.prepare('SELECT idx FROM sqlite_stat1 WHERE tbl = ?').all('transactions') as Array<{ idx: string }>).map((r) => r.idx)
        : [];
      if (analysed) expect(stats).toEqual(expect.arrayContaining(['transactions_by_time', 'transactions_by_wallet_time']));
      else expect(stats).toEqual([]);
      // One wallet's filtered page walks that wallet's index, in order, with no sort.
      const p = plan(
        db,
        "SELECT id FROM transactions t WHERE t.wallet = '0xw' AND t.chain IN ('arb') AND +t.action_type IN ('swap') ORDER BY t.time DESC, t.id DESC LIMIT 100",
      );
      expect(p).toContain('transactions_by_wallet_time');
      expect(p).not.toContain('TEMP B-TREE');
    }
  });
});
