import { z } from 'zod';
import type { Database } from './db.ts';

/**
 * App settings kept in the cache. The access key is not a setting: it lives in the OS
 * keychain, and this schema rejects any member that is not listed here.
 */
export const settingsSchema = z.strictObject({
  baseUrl: z.string().url().nullable(),
  chains: z.array(z.string().regex(/^[A-Za-z0-9_.:-]{1,64}$/)).min(1),
  theme: z.enum(['system', 'light', 'dark']),
  locale: z.string().min(2).max(35).nullable(),
  transactionPageSize: z.number().int().min(10).max(1000),
});

export type Settings = z.output<typeof settingsSchema>;

export const DEFAULT_SETTINGS: Settings = {
  baseUrl: null,
  chains: ['eth', 'arb', 'op', 'base', 'matic', 'bsc'],
  theme: 'system',
  locale: null,
  transactionPageSize: 500,
};

export function getSettings(db: Database): Settings {
  const rows = db.prepare('SELECT key, value FROM settings').all() as Array<{ key: string; value: string }>;
  const stored: Record<string, unknown> = {};
  for (const r of rows) if (r.key in DEFAULT_SETTINGS) stored[r.key] = JSON.parse(r.value);
  // A value that no longer validates (an older app's) falls back to the default.
  const merged = { ...DEFAULT_SETTINGS, ...stored };
  const parsed = settingsSchema.safeParse(merged);
  return parsed.success ? parsed.data : DEFAULT_SETTINGS;
}

export function updateSettings(db: Database, changes: Partial<Settings>): Settings {
  const next = settingsSchema.parse({ ...getSettings(db), ...changes });
  const put = db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
  db.transaction(() => {
    for (const key of Object.keys(changes) as Array<keyof Settings>) put.run(key, JSON.stringify(next[key]));
  })();
  return next;
}
