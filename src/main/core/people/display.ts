/**
 * Each person's display on a team server (docs/team.md, "Each person's display"): the theme, the
 * format and the time zone a person chose for themselves, read over the books' settings. The
 * books' settings stay the open store's (store/settings.ts), an owner's to change; these are the
 * person's, kept with them (a restore keeps them as it keeps the people: people.ts `peopleKeeper`).
 */
import { DISPLAY_SETTINGS, SettingsSchema, type DisplaySetting, type Settings as SettingsAnswer } from '../../../shared/contract.ts';
import type { ReadableDB, WritableDB } from '../store/handles.ts';
import { readSettings, type Settings } from '../store/settings.ts';
import { displayRows, putDisplayRow } from './store/display.ts';

/** What a person chose for themselves (null: the books', followed), and the books' own. */
export type PersonalDisplay = NonNullable<SettingsAnswer['personal']>;
type Choices = { [K in DisplaySetting]?: Settings[K] | null | undefined };

/**
 * The settings as a person reads them: the books', with the person's own theme, format and zone
 * in place of the books' (`personal` says which are whose). Without a person (the app, the
 * loopback web shell, the CLI), the books' alone. A choice kept that no longer validates (a
 * locale this system lacks) is passed over: the books' is used.
 */
export function settingsFor(db: ReadableDB, person?: string): { settings: Settings; notices: string[]; personal?: PersonalDisplay } {
  const read = readSettings(db);
  if (person === undefined) return read;
  const own: { [K in DisplaySetting]: Settings[K] | null } = { theme: null, locale: null, timeZone: null };
  for (const r of displayRows(db, person)) {
    if (!(DISPLAY_SETTINGS as readonly string[]).includes(r.key)) continue;
    const key = r.key as DisplaySetting;
    let value: unknown;
    try {
      value = JSON.parse(r.value);
    } catch {
      continue;
    }
    const parsed = SettingsSchema.shape[key].safeParse(value);
    if (parsed.success && parsed.data !== null) (own as Record<string, unknown>)[key] = parsed.data;
  }
  const books = { theme: read.settings.theme, locale: read.settings.locale, timeZone: read.settings.timeZone };
  return {
    settings: { ...read.settings, theme: own.theme ?? books.theme, locale: own.locale ?? books.locale, timeZone: own.timeZone ?? books.timeZone },
    notices: read.notices,
    personal: { ...own, books },
  };
}

/**
 * Sets a person's own display: a value replaces theirs, null removes it (the books' is followed
 * again), a setting not named stays. The values were checked by the contract (`DisplayInput`).
 * Not an edit of the books: the audit trail does not record it, and no version guards it (one
 * person's choice, which nobody else changes).
 */
export function setPersonalDisplay(db: WritableDB, person: string, changes: Choices): void {
  db.transaction(() => {
    for (const key of DISPLAY_SETTINGS) {
      const value = changes[key];
      if (value !== undefined) putDisplayRow(db, person, key, value === null ? null : JSON.stringify(value));
    }
  })();
}
