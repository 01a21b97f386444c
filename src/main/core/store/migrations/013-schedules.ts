import type { Database } from 'better-sqlite3-multiple-ciphers';

/**
 * Version 13: scheduled syncs, and the lease that keeps two processes (the app and a cron
 * `folioscope watch`, say) from running them at once.
 *
 * A schedule keeps the slot it last ran (`last_slot`, UTC ISO): a run takes the newest slot
 * that has come, so slots missed while the computer slept or was offline are caught up once,
 * not once each. The lease is one row: whoever holds it until a time in the future runs the
 * schedules; a holder that died leaves a lease that simply expires.
 */
export function updateToSchemaVersion13(db: Database): void {
  db.exec(`
    CREATE TABLE schedules (
      id          INTEGER PRIMARY KEY,
      scope       TEXT NOT NULL,   -- JSON: {"kind":"all"} | {"kind":"wallet","address":…} | {"kind":"group","id":…}
      what        TEXT NOT NULL CHECK (what IN ('positions', 'transactions', 'both')),
      cadence     TEXT NOT NULL,   -- JSON: {"every":"hour","minute":…} | {"every":"day",…} | {"every":"week",…}
      created_at  TEXT NOT NULL,
      last_slot   TEXT,
      last_run    TEXT             -- JSON: {startedAt, finishedAt, state, note}
    ) STRICT;

    CREATE TABLE schedule_lease (
      id        INTEGER PRIMARY KEY CHECK (id = 1),
      holder    TEXT NOT NULL,
      until_ms  INTEGER NOT NULL
    ) STRICT;
  `);
}
