import { describe, expect, it } from 'vitest';
import { schemaVersion } from '../../src/main/core/store/db.ts';
import { MIGRATIONS, SCHEMA_VERSION } from '../../src/main/core/store/migrations/index.ts';
import { updateToSchemaVersion19 } from '../../src/main/core/store/migrations/019-period-closes.ts';
import { createDB, updateToVersion } from '../support/store.ts';

describe('migration 019: closed periods', () => {
  it('adds the closes to a database of the previous version, keeping its data; one close in force per scope and period', () => {
    // 17 and 18 come from other branches: the position is fixed at their merge, so only its presence is asserted.
    const index = MIGRATIONS.indexOf(updateToSchemaVersion19);
    expect(index).toBeGreaterThan(15);
    const db = createDB({ version: index });
    db.prepare("INSERT INTO wallets (address, chains, created_at) VALUES ('0xa', '[\"eth\"]', 'now')").run();
    updateToVersion(db, SCHEMA_VERSION);
    expect(schemaVersion(db)).toBe(SCHEMA_VERSION);
    expect(db.prepare('SELECT count(*) AS n FROM wallets').get()).toEqual({ n: 1 });
    const insert = db.prepare(
      `INSERT INTO period_closes (scope_kind, scope_wallet, scope_group, scope_name, members, period_from, period_to, closed_at, figures, hash, parts, basis)
       VALUES ('wallet', '0xa', NULL, 'A', '["0xa"]', '2026-09-30', '2026-10-31', 't', '{}', 'h', '{}', '[]')`,
    );
    insert.run();
    expect(() => insert.run()).toThrow(/UNIQUE/);
    db.prepare("UPDATE period_closes SET reopened_at = 't2', reopen_reason = 'late invoice'").run();
    insert.run();
    expect(db.prepare('SELECT count(*) AS n FROM period_closes').get()).toEqual({ n: 2 });
  });
});
