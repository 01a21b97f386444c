import { describe, expect, it } from 'vitest';
import { schemaVersion } from '../../src/main/core/store/db.ts';
import { MIGRATIONS, SCHEMA_VERSION } from '../../src/main/core/store/migrations/index.ts';
import { updateToSchemaVersion17 } from '../../src/main/core/store/migrations/017-counterparties.ts';
import { createDB, updateToVersion } from '../support/store.ts';

describe('migration 017: the address book', () => {
  it('adds the counterparties table to a database of the previous version, keeping its data; one entry per address', () => {
    const index = MIGRATIONS.indexOf(updateToSchemaVersion17);
    expect(index).toBeGreaterThanOrEqual(15);
    const db = createDB({ version: index });
    db.prepare("INSERT INTO wallets (address, chains, created_at) VALUES ('0xa', '[\"eth\"]', 'now')").run();
    updateToVersion(db, index + 1);
    expect(schemaVersion(db)).toBe(index + 1);
    expect(db.prepare('SELECT count(*) AS n FROM wallets').get()).toEqual({ n: 1 });
    const add = (name: string) => db.prepare("INSERT INTO counterparties (address, name, created_at, updated_at) VALUES ('0xb', ?, 'now', 'now')").run(name);
    add('Grantee X');
    expect(() => add('Other')).toThrow(/UNIQUE/);
    expect(db.prepare('SELECT name, tags, ours, chains, note FROM counterparties').get()).toEqual({
      name: 'Grantee X',
      tags: '[]',
      ours: 0,
      chains: '[]',
      note: '',
    });
    expect(() => db.prepare('UPDATE counterparties SET ours = 2').run()).toThrow(/CHECK/);
    updateToVersion(db, SCHEMA_VERSION);
    expect(db.prepare('SELECT count(*) AS n FROM counterparties').get()).toEqual({ n: 1 });
  });
});
