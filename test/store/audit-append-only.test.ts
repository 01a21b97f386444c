import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { schemaVersion } from '../../src/main/core/store/db.ts';
import { recordEdit } from '../../src/main/core/store/audit.ts';
import { SCHEMA_VERSION } from '../../src/main/core/store/migrations/index.ts';
import { createDB } from '../support/store.ts';

/**
 * The audit trail is append-only (docs/reports.md, the `audit` report): beside refusing UPDATE and
 * DELETE, migration 16 refuses an insert over an existing row, since `INSERT OR REPLACE` would
 * rewrite one past both (SQLite's REPLACE deletes the conflicting row without firing delete
 * triggers). Tried as a user with `sqlite3` on the cache file would, and on the app's own connection.
 */
describe('the audit trail refuses an insert over an edit', () => {
  it('refuses REPLACE, INSERT OR REPLACE and an upsert of an existing row; appending still works', () => {
    const db = createDB();
    expect(schemaVersion(db)).toBe(SCHEMA_VERSION);
    recordEdit(db, { entity: 'wallet', key: '0xa', action: 'create', before: null, after: { label: 'Treasury' } });
    const row = () => db.prepare('SELECT * FROM audit_log WHERE id = 1').get();
    const original = row();
    expect(original).toMatchObject({ entity: 'wallet', after: '{"label":"Treasury"}' });
    for (const attack of [
      `INSERT OR REPLACE INTO audit_log (id, at, entity, item, action, before, after, origin) VALUES (1, 't', 'wallet', '0xa', 'create', NULL, '{"label":"Forged"}', 'x')`,
      `REPLACE INTO audit_log (id, at, entity, item, action, before, after, origin) VALUES (1, 't', 'wallet', '0xa', 'create', NULL, '{"label":"Forged"}', 'x')`,
      `INSERT OR REPLACE INTO audit_log SELECT id, at, entity, item, action, before, '{"label":"Forged"}', reason, origin, person, via FROM audit_log`,
      `INSERT INTO audit_log (id, at, entity, item, action, after, origin) VALUES (1, 't', 'wallet', '0xa', 'create', '{}', 'x') ON CONFLICT(id) DO UPDATE SET after = excluded.after`,
    ])
      expect(() => db.prepare(attack).run(), attack).toThrow(/append-only/);
    // From outside the app: the sqlite3 program on the cache file.
    const cli = spawnSync(
      'sqlite3',
      [
        db.name,
        `INSERT OR REPLACE INTO audit_log SELECT id, at, entity, item, action, before, '{"label":"Forged"}', reason, origin, person, via FROM audit_log`,
      ],
      {
        encoding: 'utf8',
      },
    );
    expect(cli.stderr).toMatch(/append-only/);
    expect(row()).toEqual(original);
    recordEdit(db, { entity: 'wallet', key: '0xa', action: 'update', before: { label: 'Treasury' }, after: { label: 'Ops' } });
    expect(db.prepare('SELECT id, after FROM audit_log ORDER BY id').all()).toEqual([
      { id: 1, after: '{"label":"Treasury"}' },
      { id: 2, after: '{"label":"Ops"}' },
    ]);
  });
});
