import { afterEach, describe, expect, it } from 'vitest';
import { setLocale } from '../../src/renderer/src/lib/format.ts';
import { german } from '../../src/renderer/src/lib/words.de.ts';
import { currentLanguage, english, languageFor, setLanguage, words } from '../../src/renderer/src/lib/words.ts';

// The German texts are held to the English source (words.ts): the typecheck already fails on a
// missing key or a text function with other arguments; this fails on what it cannot see (the
// groups typed `Record<string, string>`, an empty text, an English text left in), so a missing
// translation fails here, never on a screen.

/**
 * Texts that are the same in both languages on purpose, by key path, each with its reason. A
 * text found equal to the English and not here fails the test.
 */
const same: Record<string, string> = {
  app: 'the product name',
  wallets: '"Wallet" is the German word in crypto use',
  'walletBulk.tag': '"Tag" (a label) is used as is in German software',
  'walletBulk.chain': 'as walletImport.chains',
  'walletImport.chains': '"Chain" is used as is in German crypto use',
  'overview.chain': 'as walletImport.chains',
  'overview.chains': 'as walletImport.chains',
  'overview.token': '"Token" is German too',
  'overview.wallet': 'as wallets',
  'positions.exportCsv': 'the view name it is given, and "(CSV)"',
  'positions.position': '"Position" is German too',
  'positions.wallet': 'as wallets',
  'positions.chain': 'as walletImport.chains',
  'positions.details': '"Details" is German too',
  'positions.token': 'as overview.token',
  'positions.chains': 'as walletImport.chains',
  'risk.wallet': 'as wallets',
  'risk.chain': 'as walletImport.chains',
  'risk.position': 'as positions.position',
  'risk.token': 'as overview.token',
  'pack.name': '"Name" is German too',
  'audit.person': '"Person" is German too',
  'teamClient.title': '"Team" is German too',
  'settingsDialog.zoneShort.utc': 'the name of the time zone',
  'teamClient.name': 'as pack.name',
  'teamClient.serverPlaceholder': 'an example address',
  'audit.viaAfter': 'only a comma before the place, which is translated',
  'pack.token': 'as overview.token',
  'pack.wallet': 'as wallets',
  'pack.chain': 'as walletImport.chains',
  'reconcile.wallet': 'as wallets',
  'reconcile.chain': 'as walletImport.chains',
  'reconcile.token': 'as overview.token',
  'reconcile.status': '"Status" is German too',
  'charts.navUsd': 'NAV and USD are the same abbreviations in German',
  'audit.kinds.wallet': 'as wallets',
  'schedules.scope': 'as wallets',
  'schedules.zoneUtc': 'UTC is UTC',
  'alerts.scope': 'as wallets',
  'groups.name': 'as pack.name',
  'groups.membersOf': '"Wallets: …" reads the same',
  'serviceCheck.marks.ok': 'OK is used as is in German',
  'walletDialog.tags': 'as walletBulk.tag',
  'walletDialog.chains': 'as walletImport.chains',
  'txn.status': '"Status …" reads the same',
  'txn.hash': '"Hash" is used as is in German',
  'txn.wallet': 'as wallets',
  'txn.token': 'as overview.token',
  'books.name': 'as pack.name',
  'books.status': 'as reconcile.status',
  'books.chains': 'as walletImport.chains',
  'books.wallets': 'as wallets',
  'timeline.columns.wallet': 'as wallets',
  'timeline.columns.status': 'as reconcile.status',
  'timeline.chain': 'as walletImport.chains',
  'timeline.token': 'as overview.token',
  'timeline.status': 'as reconcile.status',
  'spam.columns.token': 'as overview.token',
  'spam.columns.wallet': 'as wallets',
  'spam.columns.chain': 'as walletImport.chains',
  'spam.badge': '"Spam" is used as is in German',
  'spam.heading': 'as spam.badge',
  'spam.markAs': 'as spam.badge',
  'spam.settingsTitle': 'as spam.badge',
  'spam.tokenOf': '"Token X" reads the same',
  'spam.leftOutAt': 'only the date and the line it is given',
  'sync.jobTitles.exportCsv': '"Export" is German too; the report is named by sync.csvReports',
  'coreErrors.seconds': '"s" is the unit in German too',
  'serviceCheck.labels.convention-logIndex': "the service field's name",
  'serviceCheck.values.ISO 8601, UTC': "the standard's name and UTC",
  'serviceCheck.forms.iso-utc': 'as serviceCheck.values.ISO 8601, UTC',
  'spam.reasonOf': 'only the symbol and the sentence it is given (a token without one is "Der Token")',
  'spam.verdictKinds.token': 'as overview.token',
  'book.columns.name': 'as pack.name',
  'book.columns.chains': 'as walletImport.chains',
  'book.columns.tags': 'as walletBulk.tag',
  'book.tags': 'as walletBulk.tag (the form’s field, now picked from a list)',
  'book.name': 'as pack.name',
  'dateField.letters.month': '"MM" is Monat in German too',
  'unlock.passphrase': '"Passphrase" is German too',
  'closes.period': 'only the two dates it is given',
  'closes.nav': 'only the two figures it is given',
};

/** Arguments for a text function whose first guess (all 2, then all "X") does not exercise its text. */
const args: Record<string, unknown[][]> = {
  'reconcile.move': [
    ['moved_into_positions', 'Aave'],
    ['debt_drawn', null],
  ],
  'reconcile.summary': [[{ tokens: 3, exact: 1, unexplained: 2, inPositions: 0, incomplete: 0 }]],
  'walletBulk.done': [
    [{ wallets: 3, changed: 2, removed: 0, groupsChanged: 1 }],
    [{ wallets: 3, changed: 0, removed: 2, groupsChanged: 0 }],
    [{ wallets: 1, changed: 0, removed: 0, groupsChanged: 0 }],
  ],
  'sync.rate': [[{ pages: 3, rate: 40, etaSeconds: 130 }], [{ pages: 1, rate: 5, etaSeconds: null }], [{ pages: 2, etaSeconds: 7300 }]],
  'audit.origin': [['groups.save'], ['core'], ['notes.set']],
  'books.unknownActionTypes': [
    [['Swap'], ['swap', 'bridge']],
    [['Swap'], []],
  ],
  'serviceCheck.evidence.learnedAt': [['2026-11-19T08:15:00.000Z']],
  'serviceCheck.evidence.unreadableValue': [
    [null, 'data[0].nav', '"NaN"'],
    ['2026-11-13', 'data[0].nav', '"NaN"'],
  ],
  'serviceCheck.evidence.anomaly': [
    ['page 3 repeated page 2', '0xabc', 'eth', '2026-11-19T08:15:00.000Z'],
    ['page 3 repeated page 2', null, null, '2026-11-19T08:15:00.000Z'],
  ],
  'positions.total': [
    [1, true],
    [3, false],
  ],
};

/** Every text of a dictionary, by key path: a string, or a function. */
function leaves(o: object, path = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [k, v] of Object.entries(o)) {
    const p = path ? `${path}.${k}` : k;
    if (v && typeof v === 'object') for (const [pp, vv] of leaves(v, p)) out.set(pp, vv);
    else out.set(p, v);
  }
  return out;
}

/** What a text function says for a few arguments: counts of one and of several, and strings. */
function sayings(path: string, f: (...a: unknown[]) => unknown): string[] {
  const tries = args[path] ?? [Array(Math.max(f.length, 1)).fill(1), Array(Math.max(f.length, 1)).fill(2), Array(Math.max(f.length, 1)).fill('X')];
  return tries.map((a) => String(f(...a)));
}

const en = leaves(english);
const de = leaves(german);

afterEach(() => {
  setLocale(null);
  setLanguage('en-US');
});

describe('the German words', () => {
  it('has every text of the English, and no other', () => {
    expect([...de.keys()].filter((k) => !en.has(k))).toEqual([]);
    expect([...en.keys()].filter((k) => !de.has(k))).toEqual([]);
  });

  it('has each text of the same kind as the English: a text for a text, a function for a function', () => {
    const differ = [...en].filter(([k, v]) => typeof v !== typeof de.get(k)).map(([k]) => k);
    expect(differ).toEqual([]);
  });

  it('has no empty text, and none left in English (unless listed as the same in both)', () => {
    setLocale('de-DE');
    const empty: string[] = [];
    const untranslated: string[] = [];
    for (const [k, v] of de) {
      const e = en.get(k);
      const said = typeof v === 'function' ? sayings(k, v as (...a: unknown[]) => unknown) : [String(v)];
      const english = typeof e === 'function' ? sayings(k, e as (...a: unknown[]) => unknown) : [String(e)];
      if (said.some((s) => !s.trim())) empty.push(k);
      if (said.some((s, i) => s === english[i]) && !(k in same)) untranslated.push(`${k}: ${said.find((s, i) => s === english[i])}`);
    }
    expect(empty).toEqual([]);
    expect(untranslated).toEqual([]);
  });

  it('lists as "the same in both" only texts that are', () => {
    const stale = Object.keys(same).filter((k) => {
      const v = de.get(k);
      const e = en.get(k);
      if (v === undefined) return true;
      if (typeof v === 'function') return !sayings(k, v as never).some((s, i) => s === sayings(k, e as never)[i]);
      return v !== e;
    });
    expect(stale).toEqual([]);
  });

  it('counts by German plural rules', () => {
    setLocale('de-DE');
    expect(german.groups.members(1)).toBe('1 Wallet');
    expect(german.groups.members(2)).toBe('2 Wallets');
    expect(german.calendar.legend(1)).toBe('gespeichert (1 Datum)');
    expect(german.calendar.legend(1234)).toBe('gespeichert (1.234 Daten)');
    expect(german.alerts.describe.unlock(1)).toBe('eine Freigabe innerhalb von 1 Tag');
    expect(german.alerts.describe.unlock(0)).toBe('eine Freigabe innerhalb von 0 Tagen');
  });
});

describe('the language follows the locale setting', () => {
  it('German for any de-* locale, English for any other', () => {
    expect(languageFor('de-DE')).toBe('de');
    expect(languageFor('de-CH')).toBe('de');
    expect(languageFor('de')).toBe('de');
    expect(languageFor('en-US')).toBe('en');
    expect(languageFor('fr-FR')).toBe('en');
    expect(languageFor('dsb-DE')).toBe('en'); // Lower Sorbian is not German
  });

  it('fills the one words object in place, so a kept part of it changes language too', () => {
    const timeline = words.timeline;
    expect(setLanguage('de-DE')).toBe('de');
    expect(currentLanguage()).toBe('de');
    expect(words.tabs.overview).toBe('Übersicht');
    expect(timeline.columns.time).toBe('Zeit');
    expect(words.timeline).toBe(timeline);
    setLanguage('en-GB');
    expect(words.tabs.overview).toBe('Overview');
    expect(timeline.columns.time).toBe('Time');
  });
});
