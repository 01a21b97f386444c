/**
 * The last service check, kept in the cache of the service it checked (each service has its
 * own cache file), under a settings key the settings schema does not list. Never a secret:
 * base URLs are stored without their query.
 */
import type { ReadableDB, WritableDB } from './db.ts';
import type { ServiceCheck } from '../../../shared/model.ts';

const KEY = 'serviceCheck';

export function saveServiceCheck(db: WritableDB, check: ServiceCheck): void {
  db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').run(KEY, JSON.stringify(check));
}

export function loadServiceCheck(db: ReadableDB): ServiceCheck | null {
  const row = db.prepare('SELECT value FROM settings WHERE key = ?').get(KEY) as { value: string } | undefined;
  if (!row) return null;
  try {
    return JSON.parse(row.value) as ServiceCheck;
  } catch {
    return null;
  }
}
