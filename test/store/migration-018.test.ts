import { describe, expect, it } from 'vitest';
import { schemaVersion } from '../../src/main/core/store/db.ts';
import { MIGRATIONS, SCHEMA_VERSION } from '../../src/main/core/store/migrations/index.ts';
import { updateToSchemaVersion18 } from '../../src/main/core/store/migrations/018-annotations.ts';
import { createDB, updateToVersion } from '../support/store.ts';

describe('migration 018: notes, categories and rules', () => {
  it('adds its tables to a database of the previous version, keeping its data, with the default categories seeded', () => {
    const index = MIGRATIONS.indexOf(updateToSchemaVersion18);
    expect(index).toBe(17);
    const db = createDB({ version: index });
    db.prepare("INSERT INTO wallets (address, chains, created_at) VALUES ('0xa', '[\"eth\"]', 'now')").run();
    updateToVersion(db, SCHEMA_VERSION);
    expect(schemaVersion(db)).toBe(SCHEMA_VERSION);
    expect(db.prepare('SELECT count(*) AS n FROM wallets').get()).toEqual({ n: 1 });
    expect(db.prepare('SELECT name, kind FROM categories ORDER BY position').all()).toEqual([
      { name: 'Payroll', kind: 'outflow' },
      { name: 'Grants', kind: 'outflow' },
      { name: 'Vendor payment', kind: 'outflow' },
      { name: 'Treasury transfer', kind: 'internal' },
      { name: 'Swap', kind: 'any' },
      { name: 'Yield/Rewards', kind: 'inflow' },
      { name: 'Fees', kind: 'outflow' },
      { name: 'Other', kind: 'any' },
    ]);
    // Names are one per category in any case; a kind outside the four is refused.
    expect(() => db.prepare("INSERT INTO categories (name, kind, position, created_at) VALUES ('payroll', 'any', 9, 'now')").run()).toThrow(/UNIQUE/);
    expect(() => db.prepare("INSERT INTO categories (name, kind, position, created_at) VALUES ('X', 'sideways', 9, 'now')").run()).toThrow(/CHECK/);
    // An annotation is keyed by (wallet, chain, hash): one per transaction, whatever row id it has.
    const note = () =>
      db.prepare("INSERT INTO txn_annotations (wallet, chain, txn_hash, note, manual_category, updated_at) VALUES ('0xa', 'eth', '0x1', 'n', 1, 'now')").run();
    note();
    expect(note).toThrow(/UNIQUE|PRIMARY/);
    // A category removed: the manual choice it was goes (the note stays); a rule's category cannot be removed under it.
    db.prepare('DELETE FROM categories WHERE id = 1').run();
    expect(db.prepare('SELECT note, manual_category FROM txn_annotations').get()).toEqual({ note: 'n', manual_category: null });
    db.prepare("INSERT INTO category_rules (position, name, category_id, conditions, created_at) VALUES (1, 'r', 2, '{}', 'now')").run();
    expect(() => db.prepare('DELETE FROM categories WHERE id = 2').run()).toThrow(/FOREIGN KEY/);
    expect(db.prepare('SELECT rules_to_txn_id, rules_to_change_id FROM annotation_state').get()).toEqual({ rules_to_txn_id: 0, rules_to_change_id: 0 });
  });
});
