import { afterEach, describe, expect, it } from 'vitest';
import {
  AuthError,
  CancelledError,
  NetworkError,
  RateLimitedError,
  RequestError,
  BadResponseError,
  ServerError,
  ServiceStatusError,
} from '../../src/main/core/service/errors.ts';
import { conventionsReport } from '../../src/main/core/service/store/conventions.ts';
import { checkDetail, checkLabel, checkValue, coreError, jobLabel } from '../../src/renderer/src/lib/core-text.ts';
import { setLocale } from '../../src/renderer/src/lib/format.ts';
import { english, setLanguage } from '../../src/renderer/src/lib/words.ts';
import { sayCoreError } from '../../src/shared/core-sentences.ts';
import type { JobTitle } from '../../src/shared/model.ts';
import { createDB } from '../support/store.ts';

/**
 * The core's error messages and job names on a German screen (issue 39, item 2: one language per
 * screen): the service client's sentences said again in German, what the service said kept as
 * sent; a sync's or an export's name from its parts.
 */
afterEach(() => {
  setLocale(null);
  setLanguage('en-US');
});

const URL = 'https://service.example/v1/x';
/** One of each sentence the service client writes (service/errors.ts), with what the service said. */
const errors = [
  new AuthError(URL, 401, 'invalid key'),
  new AuthError(URL, 403, ''),
  new RateLimitedError(URL, 30_000),
  new RateLimitedError(URL, null),
  new RateLimitedError(URL, null, 300_000),
  new RateLimitedError(URL, null, 45_000),
  new ServerError(URL, 503, 'maintenance'),
  new ServerError(URL, 500, ''),
  new NetworkError(URL, true, ''),
  new NetworkError(URL, false, 'ECONNREFUSED'),
  new RequestError(URL, 400, 'bad date', 'date'),
  new RequestError(URL, 422, '', null),
  new BadResponseError(URL, 'data[0].nav', 'expected a number'),
  new ServiceStatusError(URL, 'error', 'wallet unknown'),
  new ServiceStatusError(URL, 'pending', ''),
  new CancelledError(URL),
];

describe('a core error on a German screen', () => {
  it('in English each message is the core’s, and the English words say it word for word (the patterns find every one)', () => {
    for (const e of errors) {
      expect(coreError(e.message)).toBe(e.message);
      // Said from the parts a pattern found: the same sentence, so the pattern read all of it.
      expect(sayCoreError(e.message, english.coreErrors), e.message).toBe(e.message);
    }
  });

  it('in German each is German, what the service said kept as sent', () => {
    setLocale('de-DE');
    setLanguage('de-DE');
    const said = errors.map((e) => coreError(e.message));
    for (const [i, s] of said.entries()) {
      expect(s, errors[i]!.message).not.toBe(errors[i]!.message);
      expect(s, errors[i]!.message).not.toMatch(/\b(?:The service|Try again|Check your)\b/);
    }
    expect(said[0]).toBe(
      'Der Dienst hat den Zugangsschlüssel abgelehnt (HTTP 401: invalid key). Prüfen Sie den Schlüssel: in der App unter Einstellungen; in der Befehlszeile mit folioscope key set oder FOLIOSCOPE_ACCESS_KEY, falls er von dort kommt.',
    );
    expect(said[2]).toBe('Der Dienst begrenzt die Anfragen; er bittet, 30 s zu warten. Versuchen Sie es später erneut.');
    expect(said[4]).toContain('5 Minuten lang jede Anfrage abgelehnt');
    expect(said[5]).toContain('45 s lang jede Anfrage abgelehnt');
    expect(said[6]).toBe('Der Dienst ist mit HTTP 503 gescheitert: maintenance. Versuchen Sie es später erneut.');
    expect(said[9]).toBe('Der Dienst ist nicht erreichbar (ECONNREFUSED). Prüfen Sie Ihre Verbindung und die Basis-URL.');
    expect(said[10]).toBe('Der Dienst hat die Anfrage abgelehnt (HTTP 400): bad date');
    expect(said[11]).toBe('Der Dienst hat die Anfrage abgelehnt (HTTP 422): ohne Angabe von Gründen');
    expect(said[12]).toBe('Der Dienst hat eine Antwort gesendet, die Folioscope nicht lesen kann: data[0].nav: expected a number');
    expect(said[13]).toBe('Der Dienst hat mit dem Status „error“ geantwortet: wallet unknown');
    expect(said[15]).toBe('Abgebrochen.');
    // A message the client did not write (a store's, a validation's) stays as it is.
    expect(coreError('The end date is before the start date.')).toBe('The end date is before the start date.');
  });
});

describe('a job’s name on a German screen', () => {
  const titles: Array<[JobTitle, string]> = [
    [{ kind: 'positions', name: 'Treasury', date: '2026-03-31' }, 'Positionen von Treasury 31. März 2026'],
    [{ kind: 'positions', name: '0xabc', date: null }, 'Positionen von 0xabc (neueste)'],
    [
      { kind: 'history', name: 'Treasury', from: '2026-01-01', to: '2026-03-31', every: 'week' },
      'Verlauf von Treasury, 1. Jan. 2026 bis 31. März 2026 wöchentlich',
    ],
    [{ kind: 'transactions', name: 'Ops' }, 'Transaktionen von Ops'],
    [{ kind: 'pack-pdf', from: '2026-02-01', to: '2026-02-28' }, 'Monatsbericht (PDF) 1. Feb. 2026 bis 28. Feb. 2026'],
    [{ kind: 'report-pdf', date: '2026-03-31' }, 'Portfoliobericht (PDF) zum 31. März 2026'],
    [{ kind: 'unlock-calendar', date: '2026-03-31' }, 'Freigabeplan (iCalendar) ab 31. März 2026'],
    [{ kind: 'export-csv', report: 'reconciliation' }, 'Export Abstimmung (CSV)'],
    [{ kind: 'user-data', encrypted: true }, 'Ihre Daten (JSON, verschlüsselt)'],
  ];

  it('in English the core’s label; in German from its parts, dates in German', () => {
    for (const [title] of titles) expect(jobLabel({ label: 'the core’s label', title })).toBe('the core’s label');
    setLocale('de-DE');
    setLanguage('de-DE');
    expect(titles.map(([title]) => jobLabel({ label: 'the core’s label', title }))).toEqual(titles.map(([, de]) => de));
    // A job without parts (made by an older core) keeps its label.
    expect(jobLabel({ label: 'Transactions of Ops' })).toBe('Transactions of Ops');
  });
});

describe('the service check on a German screen', () => {
  it('names every learned convention as the core does in English, and in German', () => {
    const db = createDB();
    const points = conventionsReport(db).points;
    expect(points.length).toBeGreaterThan(10);
    for (const p of points) expect(checkLabel({ id: `convention-${p.key}`, label: p.label })).toBe(p.label);
    setLocale('de-DE');
    setLanguage('de-DE');
    const german = points.map((p) => checkLabel({ id: `convention-${p.key}`, label: p.label }));
    expect(german.filter((l, i) => l === points[i]!.label && l !== 'log_index')).toEqual([]);
    // Each reading the core gives a fresh cache is said in German (a figure stays a figure).
    expect(points.map((p) => checkValue(p.value)).filter((v, i) => v === points[i]!.value && !/^[\d.]+( h)?$|^\w+$/.test(v))).toEqual([]);
    // And each word the core reads a convention as (shared/conventions.ts), learned or not yet.
    for (const w of [
      'inclusive',
      'half-open',
      'exclusive',
      'newest-first',
      'oldest-first',
      'unordered',
      'empty',
      'repeat-last',
      'logs',
      'pages',
      'global',
      'per-page',
      'unknown',
    ])
      expect(checkValue(w), w).not.toBe(w);
  });

  it('says the readings naming a day with the day in German, and the fixed ones', () => {
    setLocale('de-DE');
    setLanguage('de-DE');
    expect(checkLabel({ id: 'latest-day', label: 'Latest snapshot (no date asked)' })).toBe('Neuester Snapshot (ohne Datum angefragt)');
    expect(checkLabel({ id: 'anomaly-7', label: 'Anomaly' })).toBe('Auffälligkeit');
    expect(checkValue('for 2026-03-31')).toBe('für 31. März 2026');
    expect(checkValue('filed under the day asked (2026-03-24)')).toBe('unter dem angefragten Tag abgelegt (24. März 2026)');
    expect(checkValue('asking for 2026-03-24 failed')).toBe('Anfrage für 24. März 2026 fehlgeschlagen');
    expect(checkValue('answers; key accepted')).toBe('antwortet; Schlüssel akzeptiert');
    expect(checkValue('numbers and numeric strings; 2 unreadable (stored as unknown, flagged)')).toBe(
      'Zahlen und numerische Zeichenketten; 2 nicht lesbar (als unbekannt gespeichert, markiert)',
    );
    expect(checkValue('Unix seconds (number), Unix milliseconds (string)')).toBe('Unix-Sekunden (Zahl), Unix-Millisekunden (Zeichenkette)');
    expect(checkValue('swap')).toBe('swap');
  });

  it('says the numbers finding’s evidence in German, the unreadable values as the service sent them', () => {
    const counts = 'in 2 position responses: 222 numbers, 0 numeric strings, 0 null, 0 other';
    const unreadable = `${counts}; unreadable: latest positions[0].principal_nav = "1e999x"`;
    expect(checkDetail(counts)).toBe(counts);
    setLocale('de-DE');
    setLanguage('de-DE');
    expect(checkDetail(counts)).toBe('in 2 Positionsantworten: 222 Zahlen, 0 numerische Zeichenketten, 0 null, 0 andere');
    expect(checkDetail(unreadable)).toBe(
      'in 2 Positionsantworten: 222 Zahlen, 0 numerische Zeichenketten, 0 null, 0 andere; nicht lesbar: latest positions[0].principal_nav = "1e999x"',
    );
    // The English words say the core's sentence word for word.
    setLanguage('en-US');
    setLocale('en-US');
    expect(english.serviceCheck.floatsDetail(2, 222, 0, 0, 0)).toBe(counts);
  });
});
