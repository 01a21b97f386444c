import { describe, expect, it } from 'vitest';
import { MIGRATIONS, SCHEMA_VERSION } from '../../src/main/core/store/migrations/index.ts';
import { updateToSchemaVersion34 } from '../../src/main/core/store/migrations/034-positions-inputs.ts';
import { createDB, updateToVersion } from '../support/store.ts';

/**
 * Migration 034: of each wallet's counter of what its views read (migration 030), the share its
 * positions moved (portfolio/kept-judge.ts tells by it a wallet whose positions alone changed). A
 * cache of the previous version keeps its counters, and its positions' share starts at zero.
 */
describe('migration 034: the positions’ share of each wallet’s counter', () => {
  it('keeps the counters, and moves `positions` with every write to snapshots and their checks, never with a transaction', () => {
    const index = MIGRATIONS.indexOf(updateToSchemaVersion34);
    expect(index).toBe(33);
    const db = createDB({ version: index });
    db.prepare(`INSERT INTO wallets (address, chains, created_at) VALUES ('0xa', '["eth"]', 'now')`).run();
    db.prepare(`INSERT INTO transactions (wallet, chain, txn_hash, time, details) VALUES ('0xa', 'eth', 'x00', 1, '[]')`).run();
    const was = db.prepare(`SELECT n FROM view_inputs WHERE wallet = '0xa'`).get() as { n: number };
    expect(was.n).toBe(1);
    updateToVersion(db, SCHEMA_VERSION);
    const of = (wallet: string) => db.prepare('SELECT n, positions FROM view_inputs WHERE wallet = ?').get(wallet);
    expect(of('0xa')).toEqual({ n: 1, positions: 0 });

    const id = db
      .prepare(
        `INSERT INTO snapshots (endpoint, wallet, chain, requested_date, as_of, fetched_at, sha256, raw, data, position_count)
         VALUES ('allPositions', '0xa', 'eth', '2026-10-31', '2026-10-31', 'now', 'h', '{}', '[]', 0)`,
      )
      .run().lastInsertRowid;
    db.prepare(`INSERT INTO snapshot_checks (snapshot_id, checked_at) VALUES (?, 'later')`).run(id);
    db.prepare(`UPDATE snapshot_checks SET checked_at = 'later still' WHERE snapshot_id = ?`).run(id);
    expect(of('0xa')).toEqual({ n: 4, positions: 3 });
    db.prepare(`INSERT INTO transactions (wallet, chain, txn_hash, time, details) VALUES ('0xa', 'eth', 'x01', 1, '[]')`).run();
    db.prepare(`UPDATE transactions SET status = 0 WHERE txn_hash = 'x01'`).run();
    expect(of('0xa')).toEqual({ n: 7, positions: 3 });
    // A snapshot deleted takes its check by cascade: both counted, on both.
    db.prepare('DELETE FROM snapshots WHERE id = ?').run(id);
    const after = of('0xa') as { n: number; positions: number };
    expect(after.n - 7).toBe(after.positions - 3);
    expect(after.positions).toBeGreaterThanOrEqual(4);
    // A wallet first counted by its positions.
    db.prepare(
      `INSERT INTO snapshots (endpoint, wallet, chain, requested_date, as_of, fetched_at, sha256, raw, data, position_count)
       VALUES ('allPositions', '0xb', 'eth', '2026-10-31', '2026-10-31', 'now', 'h', '{}', '[]', 0)`,
    ).run();
    expect(of('0xb')).toEqual({ n: 1, positions: 1 });
    db.close();
  });
});
