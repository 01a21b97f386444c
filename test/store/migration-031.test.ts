import { describe, expect, it } from 'vitest';
import { MIGRATIONS, SCHEMA_VERSION } from '../../src/main/core/store/migrations/index.ts';
import { updateToSchemaVersion31 } from '../../src/main/core/store/migrations/031-kept-answers.ts';
import { createDB, updateToVersion } from '../support/store.ts';

/**
 * Migration 031: the screens' answers kept in the file (docs/design-notes.md, "Answers kept in
 * the file"). A cache of the previous version keeps its data and starts with none kept; a wallet
 * or a snapshot leaving the file drops every answer (their figures go with them), other writes none.
 */
describe('migration 031: kept answers', () => {
  it('keeps the data, starts empty, and drops the answers when a wallet or a snapshot is deleted', () => {
    const index = MIGRATIONS.indexOf(updateToSchemaVersion31);
    expect(index).toBe(30);
    const db = createDB({ version: index });
    db.prepare(`INSERT INTO wallets (address, chains, created_at) VALUES ('0xa', '["eth"]', 'now'), ('0xb', '["eth"]', 'now')`).run();
    const snapshot = db.prepare(
      `INSERT INTO snapshots (endpoint, wallet, chain, requested_date, as_of, fetched_at, sha256, raw, data, position_count)
       VALUES ('allPositions', ?, 'eth', ?, ?, 'now', 'h', '{}', '[]', 0)`,
    );
    const id = snapshot.run('0xa', '2026-10-31', '2026-10-31').lastInsertRowid;
    updateToVersion(db, SCHEMA_VERSION);
    expect(db.prepare('SELECT count(*) AS n FROM wallets').get()).toEqual({ n: 2 });
    const count = () => (db.prepare('SELECT count(*) AS n FROM kept_answers').get() as { n: number }).n;
    expect(count()).toBe(0);
    const keep = () =>
      db.prepare(`INSERT INTO kept_answers (ask, mark, used_at, size, request, answer) VALUES (?, 'm', 1, 2, '{}', '{}')`).run(String(Math.random()));
    keep();
    keep();
    // Writes that add or change: the answers stay (their marks say whether they are current).
    snapshot.run('0xb', '2026-10-30', '2026-10-30');
    db.prepare(`UPDATE wallets SET label = 'Ops' WHERE address = '0xb'`).run();
    expect(count()).toBe(2);
    db.prepare('DELETE FROM snapshots WHERE id = ?').run(id);
    expect(count()).toBe(0);
    keep();
    db.prepare(`DELETE FROM wallets WHERE address = '0xb'`).run();
    expect(count()).toBe(0);
    // One answer per ask.
    keep();
    expect(() =>
      db.prepare(`INSERT INTO kept_answers (ask, mark, used_at, size, request, answer) SELECT ask, 'n', 2, 2, '{}', '{}' FROM kept_answers`).run(),
    ).toThrow(/UNIQUE/);
    db.close();
  });
});
