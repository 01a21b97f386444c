import { describe, expect, it } from 'vitest';
import { schemaVersion } from '../../src/main/core/store/db.ts';
import { MIGRATIONS, SCHEMA_VERSION } from '../../src/main/core/store/migrations/index.ts';
import { updateToSchemaVersion28 } from '../../src/main/core/store/migrations/028-four-eyes.ts';
import { createDB, updateToVersion } from '../support/store.ts';

describe('migration 028: four eyes on a close', () => {
  it('keeps every close as it was (closed in one step, naming no preparer); a prepared close holds its period, a rejected one frees it', () => {
    // 27 comes from another branch: the position is fixed at its merge, so only its presence is asserted.
    const index = MIGRATIONS.indexOf(updateToSchemaVersion28);
    expect(index).toBeGreaterThan(25);
    const db = createDB({ version: index });
    db.prepare(
      `INSERT INTO period_closes (scope_kind, scope_wallet, scope_group, scope_name, members, period_from, period_to, closed_at, figures, hash, parts, basis,
                                  reopened_at, reopen_reason, closed_by, reopened_by, names_text)
       VALUES ('wallet', '0xa', NULL, 'A', '["0xa"]', '2026-09-30', '2026-10-31', '2026-11-01T00:00:00.000Z', '{}', 'h', '{}', '[]',
               '2026-11-02T00:00:00.000Z', 'late invoice', 'alice@laptop', 'bob@laptop', 'names')`,
    ).run();
    updateToVersion(db, SCHEMA_VERSION);
    expect(schemaVersion(db)).toBe(SCHEMA_VERSION);
    expect(
      db.prepare('SELECT id, closed_at, closed_by, reopened_by, reopen_reason, names_text, prepared_at, prepared_by, rejected_at FROM period_closes').all(),
    ).toEqual([
      {
        id: 1,
        closed_at: '2026-11-01T00:00:00.000Z',
        closed_by: 'alice@laptop',
        reopened_by: 'bob@laptop',
        reopen_reason: 'late invoice',
        names_text: 'names',
        prepared_at: null,
        prepared_by: null,
        rejected_at: null,
      },
    ]);
    // A prepared close (not closed yet) holds the period: a second is refused until it is rejected.
    const prepare = db.prepare(
      `INSERT INTO period_closes (scope_kind, scope_wallet, scope_group, scope_name, members, period_from, period_to, closed_at, figures, hash, parts, basis, prepared_at, prepared_by)
       VALUES ('wallet', '0xa', NULL, 'A', '["0xa"]', '2026-09-30', '2026-10-31', NULL, '{}', 'h', '{}', '[]', 't', 'pia')`,
    );
    prepare.run();
    expect(() => prepare.run()).toThrow(/UNIQUE/);
    db.prepare("UPDATE period_closes SET rejected_at = 't2', rejected_by = 'abe', reject_reason = 'why' WHERE id = 2").run();
    prepare.run();
    expect(db.prepare('SELECT count(*) AS n FROM period_closes').get()).toEqual({ n: 3 });
  });
});
