import type { Database } from 'better-sqlite3-multiple-ciphers';

/**
 * Version 21: each schedule keeps the time zone its time was given in (issue 39).
 *
 * A schedule's hour was read in the display setting's zone, so switching transaction times to
 * local time silently moved "06:00 UTC" to "06:00 local". Now the zone is the schedule's own,
 * set when it is saved. A schedule made before this version runs where it ran until now: in the
 * zone the setting holds at the upgrade ('utc' or 'local', the setting's JSON value).
 */
export function updateToSchemaVersion21(db: Database): void {
  const row = db.prepare("SELECT value FROM settings WHERE key = 'timeZone'").get() as { value: string } | undefined;
  let zone = 'utc';
  try {
    if (row && JSON.parse(row.value) === 'local') zone = 'local';
  } catch {
    // A hand-edited setting the app would ignore: its default, UTC.
  }
  db.exec(`ALTER TABLE schedules ADD COLUMN zone TEXT NOT NULL DEFAULT 'utc' CHECK (zone IN ('utc', 'local'))`);
  db.prepare('UPDATE schedules SET zone = ?').run(zone);
}
