import type { Database } from 'better-sqlite3-multiple-ciphers';

/**
 * Version 28: four eyes on a close (issue 37 item 4). A close is prepared first (its pack and
 * hash stored, `prepared_at`/`prepared_by`), then approved by another person — only then is it
 * closed (`closed_at`/`closed_by`: who approved it) — or rejected with a reason
 * (`rejected_at`/`rejected_by`/`reject_reason`), which ends it without ever being in force.
 *
 * `closed_at` becomes nullable (a prepared or rejected close is not closed), which SQLite only
 * allows by rebuilding the table: the rows are copied as they are. A close made before this
 * version has no `prepared_at`: it was closed in one step by one person, and says nothing more
 * (never guessed). The index of what holds a scope's period now counts a prepared close too, so
 * a period is prepared or closed once at a time; a rejected or reopened one holds nothing.
 */
export function updateToSchemaVersion28(db: Database): void {
  db.exec(`
    CREATE TABLE period_closes_new (
      id            INTEGER PRIMARY KEY,
      scope_kind    TEXT NOT NULL,
      scope_wallet  TEXT,
      scope_group   INTEGER,
      scope_name    TEXT NOT NULL,
      members       TEXT NOT NULL,
      period_from   TEXT NOT NULL,
      period_to     TEXT NOT NULL,
      closed_at     TEXT,            -- when it was approved (closed); NULL while prepared, or rejected
      figures       TEXT NOT NULL,
      hash          TEXT NOT NULL,
      parts         TEXT NOT NULL,
      basis         TEXT NOT NULL,
      checked_at    TEXT,
      flagged_at    TEXT,
      flag          TEXT,
      reopened_at   TEXT,
      reopen_reason TEXT,
      closed_by     TEXT,            -- who closed it: the approver
      reopened_by   TEXT,
      names_text    TEXT,
      prepared_at   TEXT,            -- NULL: closed before closes were prepared (one step)
      prepared_by   TEXT,
      rejected_at   TEXT,
      rejected_by   TEXT,
      reject_reason TEXT
    ) STRICT;
    INSERT INTO period_closes_new (id, scope_kind, scope_wallet, scope_group, scope_name, members, period_from, period_to, closed_at, figures, hash,
                                   parts, basis, checked_at, flagged_at, flag, reopened_at, reopen_reason, closed_by, reopened_by, names_text)
      SELECT id, scope_kind, scope_wallet, scope_group, scope_name, members, period_from, period_to, closed_at, figures, hash,
             parts, basis, checked_at, flagged_at, flag, reopened_at, reopen_reason, closed_by, reopened_by, names_text
      FROM period_closes;
    DROP TABLE period_closes;
    ALTER TABLE period_closes_new RENAME TO period_closes;
    CREATE UNIQUE INDEX period_closes_in_force ON period_closes
      (scope_kind, coalesce(scope_wallet, ''), coalesce(scope_group, 0), period_from, period_to) WHERE reopened_at IS NULL AND rejected_at IS NULL;
    CREATE INDEX period_closes_by_period ON period_closes (period_from, period_to);
  `);
}
