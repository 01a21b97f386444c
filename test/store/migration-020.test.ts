import { describe, expect, it } from 'vitest';
import { schemaVersion } from '../../src/main/core/store/db.ts';
import { MIGRATIONS, SCHEMA_VERSION } from '../../src/main/core/store/migrations/index.ts';
import { updateToSchemaVersion20 } from '../../src/main/core/store/migrations/020-owed-seams.ts';
import { createDB, updateToVersion } from '../support/store.ts';

describe('migration 020: page seams owed a re-read', () => {
  it('adds the owed seams to a database of the previous version, keeping its data; one row per seam', () => {
    const index = MIGRATIONS.indexOf(updateToSchemaVersion20);
    expect(index).toBeGreaterThan(18);
    const db = createDB({ version: index });
    db.prepare("INSERT INTO wallets (address, chains, created_at) VALUES ('0xa', '[\"eth\"]', 'now')").run();
    updateToVersion(db, SCHEMA_VERSION);
    expect(schemaVersion(db)).toBe(SCHEMA_VERSION);
    expect(db.prepare('SELECT count(*) AS n FROM wallets').get()).toEqual({ n: 1 });
    const owe = db.prepare("INSERT INTO txn_owed_seams (wallet, chain, lo, hi, reason, since) VALUES ('0xa', 'eth', 100, 100, 'tie', 't')");
    owe.run();
    expect(() => owe.run()).toThrow(/UNIQUE|PRIMARY KEY/);
    expect(db.prepare('SELECT tries, last_error FROM txn_owed_seams').get()).toEqual({ tries: 0, last_error: null });
  });
});
