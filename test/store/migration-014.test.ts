import BetterSqlite3 from 'better-sqlite3-multiple-ciphers';
import { describe, expect, it } from 'vitest';
import { migrate, schemaVersion } from '../../src/main/core/store/db.ts';
import { MIGRATIONS, SCHEMA_VERSION } from '../../src/main/core/store/migrations/index.ts';
import { updateToSchemaVersion14 } from '../../src/main/core/store/migrations/014-alerts.ts';

describe('migration 014: alert rules and alerts', () => {
  it('adds its tables to a database of the previous version, keeping its data; one open alert per rule and subject', () => {
    const db = new BetterSqlite3(':memory:');
    db.pragma('foreign_keys = ON');
    const index = MIGRATIONS.indexOf(updateToSchemaVersion14);
    expect(index).toBe(13);
    migrate(db, index);
    db.prepare("INSERT INTO wallets (address, chains, created_at) VALUES ('0xa', '[\"eth\"]', 'now')").run();
    db.prepare(
      'INSERT INTO schedules (scope, what, cadence, created_at) VALUES (\'{"kind":"all"}\', \'both\', \'{"every":"hour","minute":0}\', \'now\')',
    ).run();
    migrate(db, SCHEMA_VERSION);
    expect(schemaVersion(db)).toBe(SCHEMA_VERSION);
    expect(db.prepare('SELECT count(*) AS n FROM schedules').get()).toEqual({ n: 1 });
    db.prepare('INSERT INTO alert_rules (scope, condition, created_at) VALUES (\'{"kind":"all"}\', \'{"kind":"stale","hours":1}\', \'now\')').run();
    const fire = () =>
      db
        .prepare("INSERT INTO alerts (rule_id, kind, subject, title, detail, facts, fired_at) VALUES (1, 'stale', '0xa|positions', 't', 'd', '{}', 'now')")
        .run();
    fire();
    expect(fire).toThrow(/UNIQUE/);
    db.prepare("UPDATE alerts SET resolved_at = 'later'").run();
    fire(); // resolved: it may fire again
    db.prepare("INSERT INTO alert_pending VALUES (1, '0xa|incomplete', 'now')").run();
    // A rule removed: its alerts stay (no rule), what it waited for goes.
    db.prepare('DELETE FROM alert_rules WHERE id = 1').run();
    expect(db.prepare('SELECT rule_id FROM alerts').all()).toEqual([{ rule_id: null }, { rule_id: null }]);
    expect(db.prepare('SELECT count(*) AS n FROM alert_pending').get()).toEqual({ n: 0 });
    db.close();
  });
});
