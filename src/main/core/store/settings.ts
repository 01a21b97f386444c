import { z } from 'zod';
import type { ReadableDB, WritableDB } from './db.ts';
import { isSupportedLocale } from '../../../shared/locale.ts';

/**
 * App settings kept in the cache. The access key is not a setting: it lives in the OS
 * keychain, and this schema rejects any member that is not listed here.
 */
export const settingsSchema = z.strictObject({
  baseUrl: z.string().url().nullable(),
  chains: z.array(z.string().regex(/^[A-Za-z0-9_.:-]{1,64}$/)).min(1),
  theme: z.enum(['system', 'light', 'dark']),
  locale: z.string().min(2).max(35).refine(isSupportedLocale, 'not a locale this system supports').nullable(),
  timeZone: z.enum(['utc', 'local']),
  transactionPageSize: z.number().int().min(10).max(1000),
});

export type Settings = z.output<typeof settingsSchema>;

export const DEFAULT_SETTINGS: Settings = {
  baseUrl: null,
  chains: ['eth', 'arb', 'op', 'base', 'matic', 'bsc'],
  theme: 'system',
  locale: null,
  timeZone: 'utc',
  transactionPageSize: 1000,
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
  const rows = db.prepare('SELECT key, value FROM settings').all() as Array<{ key: string; value: string }>;
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
    const parsed = settingsSchema.shape[key].safeParse(value);
    if (parsed.success) (settings as Record<string, unknown>)[key] = parsed.data;
    else
      notices.push(
        `The saved ${key} setting (${JSON.stringify(typeof value === 'symbol' ? r.value : value)?.slice(0, 40)}) is not valid here and was ignored; the default is used. Choose it again in Settings.`,
      );
  }
  return { settings, notices };
}

export function updateSettings(db: WritableDB, changes: Partial<Settings>): Settings {
  const next = settingsSchema.parse({ ...getSettings(db), ...changes });
  const put = db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
  db.transaction(() => {
    for (const key of Object.keys(changes) as Array<keyof Settings>) put.run(key, JSON.stringify(next[key]));
  })();
  return next;
}
