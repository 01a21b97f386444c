import { describe, expect, it } from 'vitest';
import { MIGRATIONS, SCHEMA_VERSION } from '../../src/main/core/store/migrations/index.ts';
import { updateToSchemaVersion29 } from '../../src/main/core/store/migrations/029-people-oidc.ts';
import { createDB, updateToVersion } from '../support/store.ts';

describe('migration 029: people linked to the provider', () => {
  it('keeps every person as they were (linked to nobody), and links one account to one person at most', () => {
    const index = MIGRATIONS.indexOf(updateToSchemaVersion29);
    expect(index).toBeGreaterThan(27);
    const db = createDB({ version: index });
    db.prepare(
      `INSERT INTO people (name, role, password, created_at, password_changed_at) VALUES ('olive', 'owner', 'scrypt$h', 1, 1), ('pia', 'preparer', 'scrypt$g', 2, 2)`,
    ).run();
    updateToVersion(db, SCHEMA_VERSION);
    expect(db.prepare('SELECT name, role, password, oidc_issuer, oidc_subject FROM people ORDER BY name').all()).toEqual([
      { name: 'olive', role: 'owner', password: 'scrypt$h', oidc_issuer: null, oidc_subject: null },
      { name: 'pia', role: 'preparer', password: 'scrypt$g', oidc_issuer: null, oidc_subject: null },
    ]);
    const link = db.prepare('UPDATE people SET oidc_issuer = ?, oidc_subject = ? WHERE name = ?');
    link.run('https://id.example', 'sub-1', 'olive');
    expect(() => link.run('https://id.example', 'sub-1', 'pia')).toThrow(/UNIQUE/);
    // The same subject at another issuer is another account.
    link.run('https://id.other.example', 'sub-1', 'pia');
    db.close();
  });
});
