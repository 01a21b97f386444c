import { describe, expect, it } from 'vitest';
import { schemaVersion } from '../../src/main/core/store/db.ts';
import { MIGRATIONS, SCHEMA_VERSION } from '../../src/main/core/store/migrations/index.ts';
import { updateToSchemaVersion21 } from '../../src/main/core/store/migrations/021-schedule-zones.ts';
import { createDB, updateToVersion } from '../support/store.ts';

describe('migration 021: each schedule keeps its zone', () => {
  for (const [setting, zone] of [
    ['"local"', 'local'],
    ['"utc"', 'utc'],
    [null, 'utc'],
    ['not json', 'utc'],
  ] as const) {
    it(`a schedule made before it runs where it ran: the setting ${setting ?? '(none)'} gives ${zone}`, () => {
      const index = MIGRATIONS.indexOf(updateToSchemaVersion21);
      expect(index).toBeGreaterThan(19);
      const db = createDB({ version: index });
      if (setting !== null) db.prepare("INSERT INTO settings (key, value) VALUES ('timeZone', ?)").run(setting);
      db.prepare(
        `INSERT INTO schedules (scope, what, cadence, created_at) VALUES ('{"kind":"all"}', 'both', '{"every":"day","hour":6,"minute":0}', 'now')`,
      ).run();
      updateToVersion(db, SCHEMA_VERSION);
      expect(schemaVersion(db)).toBe(SCHEMA_VERSION);
      expect(db.prepare('SELECT zone FROM schedules').get()).toEqual({ zone });
      expect(() => db.prepare("UPDATE schedules SET zone = 'mars'").run()).toThrow(/CHECK/);
    });
  }
});
