/**
 * The last service check, kept in the cache of the service it checked (each service has its
 * own cache file), under a settings key the settings schema does not list. Never a secret:
 * base URLs are stored without their query.
 */
import type { ReadableDB, WritableDB } from '../../store/db.ts';
import type { ServiceCheck } from '../../../../shared/model.ts';
import { run, sql, value } from '../../store/sql.ts';

const KEY = 'serviceCheck';

export function saveServiceCheck(db: WritableDB, check: ServiceCheck): void {
  run(db, sql`INSERT INTO settings (key, value) VALUES (${KEY}, ${JSON.stringify(check)}) ON CONFLICT (key) DO UPDATE SET value = excluded.value`);
}

export function loadServiceCheck(db: ReadableDB): ServiceCheck | null {
  const json = value<string>(db, sql`SELECT value FROM settings WHERE key = ${KEY}`);
  if (json === undefined) return null;
  try {
    return JSON.parse(json) as ServiceCheck;
  } catch {
    return null;
  }
}
