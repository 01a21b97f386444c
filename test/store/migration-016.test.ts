import { describe, expect, it } from 'vitest';
import { schemaVersion } from '../../src/main/core/store/db.ts';
import { MIGRATIONS, SCHEMA_VERSION } from '../../src/main/core/store/migrations/index.ts';
import { updateToSchemaVersion16 } from '../../src/main/core/store/migrations/016-audit-log.ts';
import { createDB, updateToVersion } from '../support/store.ts';

describe('migration 016: the audit trail', () => {
  it('adds an append-only audit log to a database of the previous version, keeping its data', () => {
    const index = MIGRATIONS.indexOf(updateToSchemaVersion16);
    expect(index).toBe(15);
    const db = createDB({ version: index });
    db.prepare("INSERT INTO wallets (address, chains, created_at) VALUES ('0xa', '[\"eth\"]', 'now')").run();
    updateToVersion(db, SCHEMA_VERSION);
    expect(schemaVersion(db)).toBe(SCHEMA_VERSION);
    expect(db.prepare('SELECT count(*) AS n FROM wallets').get()).toEqual({ n: 1 });
    db.prepare(
      "INSERT INTO audit_log (at, entity, item, action, before, after, origin) VALUES ('t', 'wallet', '0xa', 'create', NULL, '{}', 'wallets.add')",
    ).run();
    expect(() => db.prepare("UPDATE audit_log SET item = '0xb'").run()).toThrow(/append-only/);
    expect(() => db.prepare('DELETE FROM audit_log').run()).toThrow(/append-only/);
    expect(db.prepare('SELECT item FROM audit_log').all()).toEqual([{ item: '0xa' }]);
  });
});
