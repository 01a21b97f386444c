import BetterSqlite3 from 'better-sqlite3-multiple-ciphers';
import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from '../../src/main/core/store/db.ts';
import { MIGRATIONS, SCHEMA_VERSION } from '../../src/main/core/store/migrations/index.ts';
import { updateToSchemaVersion3 } from '../../src/main/core/store/migrations/003-snapshot-dates-and-quality.ts';

describe('migration 003: the service date and data quality beside each snapshot', () => {
  it('adds service_date and quality, keeps older rows (NULL in both) and their immutability', () => {
    const db = new BetterSqlite3(':memory:');
    const at = MIGRATIONS.indexOf(updateToSchemaVersion3);
    expect(at).toBeGreaterThan(0);
    migrate(db, at); // the version before this migration
    db.prepare(
      "INSERT INTO snapshots (endpoint, wallet, chain, requested_date, as_of, fetched_at, sha256, raw, data, total_nav, position_count) VALUES ('allPositions', 'w', 'eth', '2025-06-01', '2025-06-01', 'now', 'h', '{}', '[]', 12.5, 0)",
    ).run();
    migrate(db, at + 1);
    expect(schemaVersion(db)).toBe(at + 1);
    const columns = (db.prepare("SELECT name FROM pragma_table_info('snapshots')").all() as Array<{ name: string }>).map((r) => r.name);
    expect(columns).toEqual(expect.arrayContaining(['service_date', 'quality']));
    expect(db.prepare('SELECT as_of, total_nav, service_date, quality FROM snapshots').get()).toEqual({
      as_of: '2025-06-01',
      total_nav: 12.5,
      service_date: null,
      quality: null,
    });
    expect(() => db.prepare("UPDATE snapshots SET quality = '[]'").run()).toThrow(/immutable/);
    migrate(db, SCHEMA_VERSION);
    db.close();
  });
});
