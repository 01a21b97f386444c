import type { Database } from 'better-sqlite3-multiple-ciphers';

/**
 * Version 14: alert rules and the alerts they fired.
 *
 * An alert is one firing of a rule about one subject (a position, an unlock, a transaction, a
 * wallet's sync, the scope's NAV). At most one alert per (rule, subject) is open (not
 * resolved): a condition that holds does not fire again; once it clears the alert is
 * resolved and the next time it holds is a new alert. Removing a rule keeps its alerts as
 * history (rule_id set to null, resolved by the store first). `alert_pending` remembers when
 * a condition that must last (a sync incomplete for N hours) was first seen.
 */
export function updateToSchemaVersion14(db: Database): void {
  db.exec(`
    CREATE TABLE alert_rules (
      id          INTEGER PRIMARY KEY,
      scope       TEXT NOT NULL,   -- JSON, as schedules.scope
      condition   TEXT NOT NULL,   -- JSON: {"kind":"health","below":…} | …
      created_at  TEXT NOT NULL,
      last_check  TEXT             -- JSON: {at, note}
    ) STRICT;

    CREATE TABLE alerts (
      id               INTEGER PRIMARY KEY,
      rule_id          INTEGER REFERENCES alert_rules (id) ON DELETE SET NULL,
      kind             TEXT NOT NULL,
      subject          TEXT NOT NULL,
      wallet           TEXT,
      title            TEXT NOT NULL,
      detail           TEXT NOT NULL,
      facts            TEXT NOT NULL,   -- JSON object
      fired_at         TEXT NOT NULL,
      resolved_at      TEXT,
      acknowledged_at  TEXT,
      snoozed_until    TEXT,
      delivery         TEXT             -- JSON: {state, at, status, error}
    ) STRICT;
    CREATE UNIQUE INDEX alerts_open ON alerts (rule_id, subject) WHERE resolved_at IS NULL;
    CREATE INDEX alerts_unacknowledged ON alerts (fired_at) WHERE acknowledged_at IS NULL;

    CREATE TABLE alert_pending (
      rule_id  INTEGER NOT NULL REFERENCES alert_rules (id) ON DELETE CASCADE,
      subject  TEXT NOT NULL,
      since    TEXT NOT NULL,
      PRIMARY KEY (rule_id, subject)
    ) STRICT, WITHOUT ROWID;
  `);
}
