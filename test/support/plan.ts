import { expect } from 'vitest';
import type { WritableDB } from '../../src/main/core/store/db.ts';

/**
 * SQLite's own plan (EXPLAIN QUERY PLAN, its lines joined by " | ") of each statement the store
 * compiles while `ask` runs and whose text `which` matches: the statements as the store's cache
 * made them, in a cache without statistics, as a user's is (the app runs no ANALYZE). Every
 * parameter, positional or named, is bound to text.
 */
export function plansOf(db: WritableDB, ask: () => unknown, which: RegExp): string[] {
  const texts: string[] = [];
  const prepare = db.prepare.bind(db);
  // The store's statement cache compiles through the connection: the text it compiled is recorded.
  (db as unknown as { prepare: (text: string) => unknown }).prepare = (text: string) => {
    texts.push(text);
    return prepare(text);
  };
  try {
    ask();
  } finally {
    (db as unknown as { prepare: unknown }).prepare = prepare;
  }
  const found = texts.filter((t) => which.test(t));
  expect(found.length, `a statement matching ${which}`).toBeGreaterThan(0);
  return found.map((text) => {
    const named = Object.fromEntries([...text.matchAll(/@(\w+)/g)].map((m) => [m[1]!, 'x']));
    const positional = (text.match(/\?/g) ?? []).map(() => 'x');
    const args = Object.keys(named).length ? [named] : positional;
    return (db.prepare(`EXPLAIN QUERY PLAN ${text}`).all(...args) as Array<{ detail: string }>).map((r) => r.detail).join(' | ');
  });
}
