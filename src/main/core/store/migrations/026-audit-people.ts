import type { Database } from 'better-sqlite3-multiple-ciphers';

/**
 * Version 26: who made each edit, and from where (issue 37 item 1, "people in every edit").
 * `person`: on a desktop the operating system's account and the machine's name
 * (`alice@treasury-laptop`), the person signed in on a team server; `via`: the shell the edit
 * came through (`app`, `web`, `cli`) or `schedule` for a scheduled run. Edits recorded before
 * this version keep both empty (NULL): the trail never guesses who made them.
 *
 * A close and a reopen name theirs in the close's own row too (`closed_by`, `reopened_by`), so a
 * closed period's pack says who closed it without reading the trail. `names_text` keeps the
 * close's `names` part as it was hashed (the labels and names it showed: a few kilobytes), so the
 * auditor's bundle of a close whose names were edited since still holds the text its hash names;
 * every other part is the data itself, kept in the cache (a change of it flags the close).
 *
 * Added columns, not a rebuilt table: the trail is append-only (migration 16's triggers refuse
 * an update), and ADD COLUMN touches no row.
 */
export function updateToSchemaVersion26(db: Database): void {
  db.exec(`
    ALTER TABLE audit_log ADD COLUMN person TEXT;
    ALTER TABLE audit_log ADD COLUMN via TEXT;
    CREATE INDEX audit_log_by_person ON audit_log (person, id);
    ALTER TABLE period_closes ADD COLUMN closed_by TEXT;
    ALTER TABLE period_closes ADD COLUMN reopened_by TEXT;
    ALTER TABLE period_closes ADD COLUMN names_text TEXT;
  `);
}
