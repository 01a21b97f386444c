/**
 * App settings kept in the cache, one row per setting, checked by the contract's
 * `SettingsSchema` when read and when written (the access key is never one of them).
 */
import { webhookShown } from '../../../shared/webhook.ts';
import { SettingsSchema, type StoredSettings as Settings } from '../../../shared/contract.ts';
import type { ReadableDB, WritableDB } from './db.ts';
import { recordEdit } from './audit.ts';
import { all, run, sql } from './sql.ts';
import { checkUnchangedSince } from './versions.ts';

export type { Settings };

/** Some of the settings: a key present with `undefined` is refused by the schema, as any bad value. */
export type SettingsChanges = { [K in keyof Settings]?: Settings[K] | undefined };

export const DEFAULT_SETTINGS: Settings = {
  baseUrl: null,
  chains: ['eth', 'arb', 'op', 'base', 'matic', 'bsc'],
  theme: 'system',
  alertWebhookUrl: null,
  locale: null,
  timeZone: 'utc',
  transactionPageSize: 1000,
  recentWindowHours: null,
  backupEnabled: true,
  backupKeep: 7,
};

export function getSettings(db: ReadableDB): Settings {
  return readSettings(db).settings;
}

/**
 * The stored settings, each checked on its own: one that no longer validates (an older
 * app's, a locale this system lacks, a hand-edited file) is ignored, its default used, and
 * a notice says so; the others still apply.
 */
export function readSettings(db: ReadableDB): { settings: Settings; notices: string[] } {
  const rows = all<{ key: string; value: string }>(db, sql`SELECT key, value FROM settings`);
  const settings: Settings = { ...DEFAULT_SETTINGS };
  const notices: string[] = [];
  for (const r of rows) {
    if (!Object.hasOwn(DEFAULT_SETTINGS, r.key)) continue;
    const key = r.key as keyof Settings;
    let value: unknown;
    try {
      value = JSON.parse(r.value);
    } catch {
      value = Symbol('unreadable');
    }
    const parsed = SettingsSchema.shape[key].safeParse(value);
    if (parsed.success) (settings as Record<string, unknown>)[key] = parsed.data;
    else {
      // The webhook's URL is a secret (src/shared/webhook.ts): a notice, which every role reads, never quotes it.
      const quoted = key === 'alertWebhookUrl' ? '' : ` (${JSON.stringify(typeof value === 'symbol' ? r.value : value)?.slice(0, 40)})`;
      notices.push(`The saved ${key} setting${quoted} is not valid here and was ignored; the default is used. Choose it again in Settings.`);
    }
  }
  return { settings, notices };
}

/**
 * Changes some settings; with `expectedVersion` (the settings' version the screen loaded), refused
 * before anything changes if someone changed one of these since (store/versions.ts).
 */
export function updateSettings(db: WritableDB, changes: SettingsChanges, expectedVersion?: number): Settings {
  return db.transaction(() => {
    checkUnchangedSince(db, Object.keys(changes), expectedVersion);
    const current = getSettings(db);
    const next = SettingsSchema.parse({ ...current, ...changes });
    for (const key of Object.keys(changes) as Array<keyof Settings>) {
      run(db, sql`INSERT INTO settings (key, value) VALUES (${key}, ${JSON.stringify(next[key])}) ON CONFLICT (key) DO UPDATE SET value = excluded.value`);
      // One edit per setting that changed (an unchanged one records nothing).
      recordEdit(db, { entity: 'setting', key, action: 'update', before: { [key]: current[key] }, after: { [key]: next[key] } });
    }
    return next;
  })();
}

/**
 * Takes the secret settings out of a copy of the books (a team server's replica for someone who
 * may not see them): the webhook URL kept as where it goes (src/shared/webhook.ts).
 */
export function scrubSecretSettings(copy: WritableDB): void {
  const url = getSettings(copy).alertWebhookUrl;
  if (url !== null) run(copy, sql`UPDATE settings SET value = ${JSON.stringify(webhookShown(url))} WHERE key = 'alertWebhookUrl'`);
}
