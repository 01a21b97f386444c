import type { Database } from 'better-sqlite3-multiple-ciphers';

/**
 * Version 33: each person's own way of reading the books on a team server (owned by core/people;
 * docs/team.md "Each person's display").
 *
 * The theme, the language and the time zone were only the books' settings, which an owner alone
 * may change (`settings.update` needs admin): a viewer, a preparer or an auditor could not pick
 * a dark theme or their own language. A row here is one person's choice of one of those three,
 * kept as `settings` keeps a value (JSON, checked by the contract's schema when read); a setting
 * a person has no row for follows the books'. Nothing here is the books: no edit of it is audited
 * and no figure depends on it. It is the people's, as their sessions are: a restore keeps it as
 * it is with them (people.ts `peopleKeeper`), and it goes with its person.
 */
export function updateToSchemaVersion33(db: Database): void {
  db.exec(`
    CREATE TABLE people_settings (
      person TEXT NOT NULL COLLATE NOCASE REFERENCES people (name) ON DELETE CASCADE,
      key    TEXT NOT NULL,
      value  TEXT NOT NULL,
      PRIMARY KEY (person, key)
    ) STRICT;
  `);
}
