import type { Database } from 'better-sqlite3-multiple-ciphers';

/**
 * Version 27: the people of a team server (issue 37 item 2, `folioscope server`; docs/team.md).
 * Owned by core/people. Nothing here is a secret a reader of the file could use: a password is
 * kept as its scrypt hash with its own salt and costs, a session and an API token as the SHA-256
 * of their random value (the value itself is only in the browser's cookie or the script's
 * environment). Times are milliseconds since the epoch of the server's clock.
 *
 * - `people`: who may sign in, with one role each; `disabled_at` set ends their sign-ins,
 *   sessions and tokens at once (kept, never deleted: the audit trail names them).
 * - `people_sessions`: a browser signed in (created and last seen, for the absolute and idle limits).
 * - `people_tokens`: personal API tokens for scripts and cron, each with a role no higher than
 *   its owner's when made (and capped by the owner's role when used).
 * - `people_sign_in_attempts`: failed (and the last good) sign-ins by name and address, for the
 *   lock-out; old rows are pruned as new ones are written.
 */
export function updateToSchemaVersion27(db: Database): void {
  db.exec(`
    CREATE TABLE people (
      name TEXT NOT NULL PRIMARY KEY COLLATE NOCASE,
      role TEXT NOT NULL,
      password TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      password_changed_at INTEGER NOT NULL,
      disabled_at INTEGER
    ) STRICT;
    CREATE TABLE people_sessions (
      id_hash TEXT NOT NULL PRIMARY KEY,
      person TEXT NOT NULL COLLATE NOCASE REFERENCES people (name) ON DELETE CASCADE,
      created_at INTEGER NOT NULL,
      last_seen INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX people_sessions_by_person ON people_sessions (person);
    CREATE TABLE people_tokens (
      id INTEGER PRIMARY KEY,
      token_hash TEXT NOT NULL UNIQUE,
      person TEXT NOT NULL COLLATE NOCASE REFERENCES people (name) ON DELETE CASCADE,
      role TEXT NOT NULL,
      label TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      last_used_at INTEGER
    ) STRICT;
    CREATE INDEX people_tokens_by_person ON people_tokens (person);
    CREATE TABLE people_sign_in_attempts (
      id INTEGER PRIMARY KEY,
      name TEXT NOT NULL COLLATE NOCASE,
      address TEXT NOT NULL,
      at INTEGER NOT NULL,
      ok INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX people_sign_in_attempts_by_name ON people_sign_in_attempts (name, at);
    CREATE INDEX people_sign_in_attempts_by_address ON people_sign_in_attempts (address, at);
  `);
}
