import { describe, expect, it } from 'vitest';
import { MIGRATIONS, SCHEMA_VERSION } from '../../src/main/core/store/migrations/index.ts';
import { updateToSchemaVersion30 } from '../../src/main/core/store/migrations/030-view-inputs.ts';
import { createDB, updateToVersion } from '../support/store.ts';

/**
 * Migration 030: the counters of what each wallet's portfolio view read (docs/design-notes.md,
 * "Kept views and their parts"). A cache of the previous version keeps its data and starts
 * counting: each write a view reads moves its wallet's counter (or the shared one), and a write
 * no view reads (a note, a wallet's label) moves none.
 */
describe('migration 030: view inputs counted by the database', () => {
  it('keeps the data, and counts every write a view reads, by wallet, and none it does not', () => {
    const index = MIGRATIONS.indexOf(updateToSchemaVersion30);
    expect(index).toBe(29);
    const db = createDB({ version: index });
    db.prepare(`INSERT INTO wallets (address, chains, created_at) VALUES ('0xa', '["eth"]', 'now'), ('0xb', '["eth"]', 'now')`).run();
    updateToVersion(db, SCHEMA_VERSION);
    const counts = () =>
      Object.fromEntries(
        (db.prepare('SELECT wallet, n FROM view_inputs ORDER BY wallet').all() as Array<{ wallet: string; n: number }>).map((r) => [r.wallet, r.n]),
      );
    expect(db.prepare('SELECT count(*) AS n FROM wallets').get()).toEqual({ n: 2 });
    expect(counts()).toEqual({});

    const snapshot = db.prepare(
      `INSERT INTO snapshots (endpoint, wallet, chain, requested_date, as_of, fetched_at, sha256, raw, data, position_count)
       VALUES ('allPositions', ?, 'eth', '2026-10-31', '2026-10-31', 'now', 'h', '{}', '[]', 0)`,
    );
    const id = snapshot.run('0xa').lastInsertRowid;
    expect(counts()).toEqual({ '0xa': 1 });
    db.prepare(`INSERT INTO snapshot_checks (snapshot_id, checked_at) VALUES (?, 'later')`).run(id);
    db.prepare(`UPDATE snapshot_checks SET checked_at = 'later still' WHERE snapshot_id = ?`).run(id);
    expect(counts()).toEqual({ '0xa': 3 });
    const txn = db.prepare(`INSERT INTO transactions (wallet, chain, txn_hash, time, details) VALUES (?, 'eth', ?, 1, '[]')`);
    txn.run('0xb', 'x01');
    txn.run('0xb', 'x02');
    db.prepare(`UPDATE transactions SET status = 0 WHERE txn_hash = 'x01'`).run();
    db.prepare(`DELETE FROM transactions WHERE txn_hash = 'x02'`).run();
    // An update counts for the wallet it left and the one it is on (here the same).
    expect(counts()).toEqual({ '0xa': 3, '0xb': 5 });
    // A delete of a snapshot drops its check by cascade: both counted.
    db.prepare('DELETE FROM snapshots WHERE id = ?').run(id);
    expect(counts()['0xa']).toBeGreaterThanOrEqual(4);

    // What every wallet's verdicts read: the shared counter ''.
    const before = counts()[''] ?? 0;
    db.prepare(`INSERT INTO spam_verdicts (kind, target, verdict, created_at, updated_at) VALUES ('address', '0xc', 'spam', 'now', 'now')`).run();
    db.prepare(`INSERT INTO spam_lists (name, imported_at, sha256, list, tokens, addresses, patterns) VALUES ('l', 'now', 'h', '{}', 0, 0, 0)`).run();
    db.prepare(`INSERT INTO counterparties (address, name, created_at, updated_at) VALUES ('0xd', 'Desk', 'now', 'now')`).run();
    db.prepare(`UPDATE wallets SET chains = '["eth","arb"]' WHERE address = '0xb'`).run();
    expect(counts()['']).toBe(before + 4);

    // Not read by any view: a wallet's label, a note.
    const now = JSON.stringify(counts());
    db.prepare(`UPDATE wallets SET label = 'Ops' WHERE address = '0xb'`).run();
    db.prepare(`INSERT INTO txn_annotations (wallet, chain, txn_hash, note, updated_at) VALUES ('0xb', 'eth', 'x01', 'n', 'now')`).run();
    expect(JSON.stringify(counts())).toBe(now);
    db.close();
  });
});
