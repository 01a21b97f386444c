/**
 * Each person's own display settings (migration 33, `people_settings`): SQL only. Which settings
 * a person may choose and how they apply over the books' are display.ts's.
 */
import type { ReadableDB, WritableDB } from '../../store/handles.ts';
import { all, run, sql } from '../../store/sql.ts';

/** A person's kept choices, as kept (JSON), one row per setting. */
export function displayRows(db: ReadableDB, person: string): Array<{ key: string; value: string }> {
  return all<{ key: string; value: string }>(db, sql`SELECT key, value FROM people_settings WHERE person = ${person}`);
}

/** Keeps one choice (`value` as JSON), or removes it (null: the books' is followed again). */
export function putDisplayRow(db: WritableDB, person: string, key: string, value: string | null): void {
  if (value === null) run(db, sql`DELETE FROM people_settings WHERE person = ${person} AND key = ${key}`);
  else
    run(
      db,
      sql`INSERT INTO people_settings (person, key, value) VALUES (${person}, ${key}, ${value}) ON CONFLICT (person, key) DO UPDATE SET value = excluded.value`,
    );
}
