import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORE_EDGES } from '../../eslint/boundaries.js';
import { TABLE_OWNERS, TABLE_READERS, tablesOutsideOwners } from '../../eslint/table-owners.js';
import { createDB, tempDir } from '../support/store.ts';

const ROOT = join(import.meta.dirname, '../..');
const CORE = join(ROOT, 'src/main/core');

/**
 * One owner per table: the import walls cannot see SQL, so a part could reach another's table by
 * a statement alone. Each table the migrations leave has one owning part; SQL elsewhere in the
 * core naming it fails, but for the open store's tables (everyone's base) and the readers
 * TABLE_READERS names (the ledger over the history).
 */
describe('one owner per table', () => {
  it('gives every table the migrations leave an owner, and every owner is a part of the core', () => {
    const db = createDB();
    const tables = (
      db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as Array<{ name: string }>
    ).map((r) => r.name);
    db.close();
    expect(Object.keys(TABLE_OWNERS).sort()).toEqual(tables);
    for (const owner of new Set(Object.values(TABLE_OWNERS))) {
      expect(CORE_EDGES, owner).toHaveProperty([owner]);
      expect(statSync(join(CORE, owner)).isDirectory(), owner).toBe(true);
    }
    for (const reader of Object.keys(TABLE_READERS)) expect(statSync(join(CORE, reader)), reader).toBeTruthy();
  });

  it('finds no SQL in src/main/core naming a table outside its owner', () => {
    expect(tablesOutsideOwners(CORE)).toEqual([]);
  });

  it('refuses a planted violation, however the statement is written, and lets the owner, the store and the ledger through', () => {
    const dir = tempDir();
    for (const folder of ['alerts/store', 'closes', 'ledger/store', 'positions/store', 'reports', 'store', 'pack/store', 'store/migrations'])
      mkdirSync(join(dir, folder), { recursive: true });
    // Another part's table, by the tag, a plain string and a template, a write and an existence check.
    writeFileSync(
      join(dir, 'alerts/store/flows.ts'),
      'export const q = (w: string) => sql`SELECT t.time FROM transactions t, json_each(t.details) j WHERE t.wallet = ${w}`;\n',
    );
    writeFileSync(join(dir, 'reports/x.ts'), "export const drop = (db: DB) => db.prepare('DELETE FROM period_closes').run();\n");
    writeFileSync(join(dir, 'closes/hash.ts'), "export const has = `SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'txn_annotations'`;\n");
    writeFileSync(join(dir, 'store/wallets.ts'), 'export const purge = sql`DELETE FROM snapshots WHERE wallet = ?`;\n');
    // Allowed: the owner, the open store's tables anywhere, the ledger over the history, migrations.
    writeFileSync(join(dir, 'positions/store/snapshots.ts'), 'export const q = sql`SELECT * FROM snapshots s JOIN wallets w ON w.address = s.wallet`;\n');
    writeFileSync(
      join(dir, 'ledger/store/timeline.ts'),
      'export const q = sql`SELECT * FROM transactions t LEFT JOIN txn_annotations a ON a.txn_hash = t.txn_hash LEFT JOIN counterparties c ON c.address = t.to_addr`;\n',
    );
    writeFileSync(join(dir, 'store/migrations/099-x.ts'), "export const up = 'ALTER TABLE transactions ADD COLUMN x';\n");
    // Not SQL: a comment, and a table spliced in (its name is not in the text).
    writeFileSync(
      join(dir, 'pack/store/flows.ts'),
      '// Reads FROM transactions through the ledger.\nexport const q = (table: string) => `SELECT 1 FROM ${table}`;\n',
    );
    expect(tablesOutsideOwners(dir)).toEqual([
      'alerts/store/flows.ts: transactions (transactions)',
      'closes/hash.ts: txn_annotations (annotations)',
      'reports/x.ts: period_closes (closes)',
      'store/wallets.ts: snapshots (positions)',
    ]);
  });
});
