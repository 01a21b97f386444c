import { describe, expect, it } from 'vitest';
import { schemaVersion } from '../../src/main/core/store/db.ts';
import { MIGRATIONS } from '../../src/main/core/store/migrations/index.ts';
import { updateToSchemaVersion24 } from '../../src/main/core/store/migrations/024-alert-resolution.ts';
import { createDB, updateToVersion } from '../support/store.ts';

describe('migration 024: why an alert was resolved', () => {
  it('adds the column to a database of the previous version, its alerts kept with none', () => {
    const index = MIGRATIONS.indexOf(updateToSchemaVersion24);
    expect(index).toBe(23);
    const db = createDB({ version: index });
    db.prepare(
      "INSERT INTO alerts (rule_id, kind, subject, wallet, title, detail, facts, fired_at, resolved_at) VALUES (NULL, 'address-poisoning', 's', NULL, 't', 'd', '{}', 'then', 'later')",
    ).run();
    updateToVersion(db, index + 1);
    expect(schemaVersion(db)).toBe(index + 1);
    expect(db.prepare('SELECT subject, resolved_at, resolution FROM alerts').all()).toEqual([{ subject: 's', resolved_at: 'later', resolution: null }]);
    db.prepare("UPDATE alerts SET resolution = 'why'").run();
    expect(db.prepare('SELECT resolution FROM alerts').get()).toEqual({ resolution: 'why' });
  });
});
