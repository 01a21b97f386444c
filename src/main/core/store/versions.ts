/**
 * Edits that do not overwrite each other (issue 37 item 5). Each editable record's version is
 * the id of the newest entry the audit trail holds for it (0: none yet). The trail is written in
 * the transaction of every edit (audit.ts `recordEdit`), is append-only and its ids only grow,
 * so the version moves with every change the user's edits make and with nothing else (a sync
 * rewriting a wallet's freshness is not an edit and leaves it), and the same entry says who made
 * the change and when — what a refused edit names. No column to add, and nothing in the user
 * data file or an export changes: a version is the cache's, not the record's.
 *
 * A screen sends the version it loaded (`expectedVersion`); an edit whose record's version
 * differs is refused (`StaleEditError`, kind `conflict`, HTTP 409 on the web shell) before it
 * changes anything, in the transaction that would make it. Absent, nothing is checked: the CLI
 * and a script edit the record as it is now, as before.
 */
import type { EditedEntity } from '../../../shared/core-codes.ts';
import { newestEdit, newestEditIds } from './audit.ts';
import type { ReadableDB } from './handles.ts';
import { StaleEditError } from './validation.ts';

/** The audit trail's name of each kind of record (audit.ts `Edit.entity`). */
const TRAIL: Record<EditedEntity, string> = {
  wallet: 'wallet',
  group: 'group',
  counterparty: 'counterparty',
  category: 'category',
  rule: 'rule',
  note: 'note',
  'alert-rule': 'alert-rule',
  schedule: 'schedule',
  'spam-verdict': 'spam-verdict',
  'spam-list': 'spam-list',
  setting: 'setting',
};

export interface LastEdit {
  version: number;
  at: string | null;
  person: string | null;
}

const NONE: LastEdit = { version: 0, at: null, person: null };

/**
 * The newest edit of one record. A category's entries are keyed by its name before the edit
 * (annotations.ts), so a renamed one is found by the name it was given (`after.name`) too.
 */
export function lastEdit(db: ReadableDB, entity: EditedEntity, key: string): LastEdit {
  const row = newestEdit(db, TRAIL[entity], key, { renamed: entity === 'category' });
  return row ? { version: row.id, at: row.at, person: row.person } : NONE;
}

/** Every record's version of one kind, by key, in one read (a list's). Not for categories (see `lastEdit`). */
export function versionsOf(db: ReadableDB, entity: Exclude<EditedEntity, 'category'>): Map<string, number> {
  return newestEditIds(db, TRAIL[entity]);
}

/**
 * The settings' version: their newest edit, any setting's. The settings are one screen, loaded
 * whole, and one record of the trail per setting; a change is checked only against the settings it
 * changes (`checkUnchangedSince`), so two people changing two different settings do not collide.
 */
export function settingsVersion(db: ReadableDB): number {
  return Math.max(0, ...versionsOf(db, 'setting').values());
}

/**
 * Refuses a change of settings (`keys`) any of which someone changed after the editor loaded
 * them at `expected` (the settings' version then), naming the newest such change.
 */
export function checkUnchangedSince(db: ReadableDB, keys: readonly string[], expected: number | undefined): void {
  if (expected === undefined) return;
  const newer = keys.map((k) => ({ key: k, last: lastEdit(db, 'setting', k) })).filter((e) => e.last.version > expected);
  if (newer.length === 0) return;
  const { key, last } = newer.reduce((a, b) => (b.last.version > a.last.version ? b : a));
  throw new StaleEditError('expectedVersion', 'edit.stale', { entity: 'setting', name: key, person: last.person, at: last.at });
}

/**
 * Refuses an edit made on a version other than the record's now, naming who changed it and
 * when. Call it inside the transaction that makes the edit, before any change. `expected` 0 is
 * "I saw no such record" (a note not written yet, an entry not in the book): it holds while
 * there is none (`exists` false), even one removed before the editor looked.
 */
export function checkVersion(db: ReadableDB, entity: EditedEntity, key: string, name: string, expected: number | undefined, exists = true): void {
  if (expected === undefined || (expected === 0 && !exists)) return;
  const last = lastEdit(db, entity, key);
  if (last.version === expected) return;
  throw new StaleEditError('expectedVersion', 'edit.stale', { entity, name, person: last.person, at: last.at });
}
