import BetterSqlite3 from 'better-sqlite3-multiple-ciphers';
import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from '../../src/main/core/store/db.ts';
import { MIGRATIONS, SCHEMA_VERSION } from '../../src/main/core/store/migrations/index.ts';
import { updateToSchemaVersion5 } from '../../src/main/core/store/migrations/005-treasury.ts';

describe('migration 005: transfer sums and wallet groups', () => {
  it('adds its tables to a database of the previous version, keeping the data, and marks sums stale on change', () => {
    const db = new BetterSqlite3(':memory:');
    db.pragma('foreign_keys = ON');
    const index = MIGRATIONS.indexOf(updateToSchemaVersion5);
    expect(index).toBeGreaterThan(0);
    migrate(db, index);
    db.prepare("INSERT INTO wallets (address, chains, created_at) VALUES ('0xa', '[\"eth\"]', 'now')").run();
    db.prepare("INSERT INTO transactions (wallet, chain, txn_hash, time, status, details) VALUES ('0xa', 'eth', '0x1', 1, 1, '[]')").run();
    migrate(db, SCHEMA_VERSION);
    expect(schemaVersion(db)).toBe(SCHEMA_VERSION);
    expect(db.prepare('SELECT count(*) AS n FROM transactions').get()).toEqual({ n: 1 });
    const tables = (
      db
        .prepare(
          "SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('transfer_days', 'transfer_days_state', 'wallet_groups', 'wallet_group_members') ORDER BY name",
        )
        .all() as Array<{ name: string }>
    ).map((r) => r.name);
    expect(tables).toEqual(['transfer_days', 'transfer_days_state', 'wallet_group_members', 'wallet_groups']);
    db.prepare("INSERT INTO transfer_days_state VALUES ('0xa', 'eth', 1)").run();
    db.prepare('UPDATE transactions SET block = 5').run(); // a column the sums do not read: still fresh
    expect(db.prepare('SELECT count(*) AS n FROM transfer_days_state').get()).toEqual({ n: 1 });
    db.prepare('UPDATE transactions SET details = \'[{"token_cid":"0xb","type":"in","qty":1}]\'').run();
    expect(db.prepare('SELECT count(*) AS n FROM transfer_days_state').get()).toEqual({ n: 0 });
    // Groups: names unique whatever the case; members go with their wallet.
    db.prepare("INSERT INTO wallet_groups (name, created_at) VALUES ('Treasury', 'now')").run();
    expect(() => db.prepare("INSERT INTO wallet_groups (name, created_at) VALUES ('treasury', 'now')").run()).toThrow(/UNIQUE/);
    db.prepare("INSERT INTO wallet_group_members VALUES (1, '0xa')").run();
    db.prepare("DELETE FROM wallets WHERE address = '0xa'").run();
    expect(db.prepare('SELECT count(*) AS n FROM wallet_group_members').get()).toEqual({ n: 0 });
    db.close();
  });
});
