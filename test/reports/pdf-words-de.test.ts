import { describe, expect, it } from 'vitest';
import { pdfFormat } from '../../src/main/core/reports/pdf-format.ts';
import { german } from '../../src/main/core/reports/pdf-words.de.ts';
import { pdfWords } from '../../src/main/core/reports/pdf-language.ts';
import { english } from '../../src/main/core/reports/pdf-words.ts';

// The PDFs' German texts held to the English source (pdf-words.ts): the typecheck already fails
// on a missing or extra key or a text function with other arguments; this fails on what it cannot
// see: an empty text, or one left in English. So a missing translation fails here, never in a PDF.

/** Texts that are the same in both languages on purpose, by key path, each with its reason. */
const same: Record<string, string> = {
  utc: 'only the time it is given and "UTC"',
  'columns.wallet': '"Wallet" is the German word in crypto use (as the screens, words.de.ts)',
  'columns.chain': '"Chain" is used as is in German crypto use',
  'columns.token': '"Token" is German too',
  'columns.position': '"Position" is German too',
  'columns.status': '"Status" is German too',
  'columns.name': '"Name" is German too',
  'report.wallets': 'as columns.wallet',
  'report.chains': 'as columns.chain',
  'report.spamItem': 'only the symbol, member, amount and reason it is given',
  'report.pool': '"Pool" is used as is in German finance',
  'pack.wallets': 'as columns.wallet',
  'pack.status': 'as columns.status',
  'pack.usd': 'USD is USD',
};

/**
 * Arguments for a text function: by default its every argument a count, 1 then 2 (German plurals
 * differ; a date or a name given as a number reads as well in a template); those that read
 * something else, by key path.
 */
const counts = (exact: number) => ({ tokens: 3, exact, unexplained: exact, inPositions: exact, incomplete: 0 });
const special: Record<string, unknown[][]> = {
  'report.reconComplete': [[counts(1)], [counts(2)]],
  'report.cachedAt': [[['2025-01-01']], [['2025-01-01', '2025-02-01']]],
  'report.docSubject': [
    ['2025-12-31', null],
    ['2025-12-31', { from: null, to: '2025-12-31' }],
  ],
  'report.subtitle': [
    ['2025-12-31', null],
    ['2025-12-31', { from: '2025-10-01', to: '2025-12-31' }],
  ],
  'report.title': [[null], ['G']],
  'report.docTitle': [
    [null, '2025-12-31'],
    ['G', '2025-12-31'],
  ],
  'report.periodValue': [
    [null, '2025-12-31'],
    ['2025-10-01', '2025-12-31'],
  ],
  'report.positionsCount': [
    [1, null, 1, 1],
    [2, 1, 2, 2],
  ],
  'report.transactions': [
    [null, '2025-12-31'],
    ['2025-10-01', '2025-12-31'],
  ],
  'report.transactionsIncomplete': [
    ['x', false],
    ['x', true],
  ],
  member: [
    [null, '0xabc', 'eth'],
    ['Cold', '0xabc', 'eth'],
  ],
  'pack.footer': [
    ['S', 'a', 'b', false],
    ['S', 'a', 'b', true],
  ],
};
const samples = (path: string, fn: (...args: never[]) => unknown): unknown[][] =>
  special[path] ?? [1, 2].map((k) => Array.from({ length: fn.length }, () => k));

function walk(en: unknown, de: unknown, path: string, out: Array<{ path: string; en: unknown; de: unknown }>): void {
  if (typeof en === 'object' && en !== null) {
    expect(typeof de, path).toBe('object');
    for (const key of Object.keys(en)) walk((en as Record<string, unknown>)[key], (de as Record<string, unknown>)[key], path ? `${path}.${key}` : key, out);
    expect(Object.keys(de as object).sort(), `${path}: the same keys`).toEqual(Object.keys(en).sort());
    return;
  }
  out.push({ path, en, de });
}

describe('the PDFs in German', () => {
  const f = pdfFormat('de-DE');
  const en = english(f);
  const de = german(f);
  const texts: Array<{ path: string; en: unknown; de: unknown }> = [];
  walk(en, de, '', texts);

  it('every text is there, not empty, and not left in English', () => {
    expect(texts.length).toBeGreaterThan(150);
    const untranslated: string[] = [];
    for (const { path, en: e, de: d } of texts) {
      if (typeof e === 'string') {
        expect(typeof d, path).toBe('string');
        expect((d as string).trim(), `${path} is empty`).not.toBe('');
        if (d === e && !same[path]) untranslated.push(path);
        continue;
      }
      expect(typeof e, path).toBe('function');
      expect(typeof d, `${path} is a text function in German too`).toBe('function');
      for (const args of samples(path, e as (...a: never[]) => unknown)) {
        const call = (fn: unknown) => (fn as (...a: unknown[]) => string)(...args);
        const eText = call(e);
        const dText = call(d);
        expect(typeof dText, path).toBe('string');
        expect(dText.trim(), `${path}(${JSON.stringify(args)}) is empty`).not.toBe('');
        if (dText === eText && !same[path]) untranslated.push(`${path}(${JSON.stringify(args)})`);
      }
    }
    expect(untranslated, 'texts equal to the English: translate them, or list them in `same` with the reason').toEqual([]);
  });

  it('lists as the same only texts that are', () => {
    const paths = new Set(texts.map((x) => x.path));
    for (const path of Object.keys(same)) expect(paths.has(path), `${path} is a text`).toBe(true);
  });

  it('a de-* locale gives the German, any other the English; no locale gives en-US', () => {
    expect(pdfWords('de-DE').t.report.summary).toBe('Zusammenfassung');
    expect(pdfWords('de-AT').t.report.summary).toBe('Zusammenfassung');
    expect(pdfWords('de-CH').f.locale).toBe('de-CH');
    expect(pdfWords('en-GB').t.report.summary).toBe('Summary');
    expect(pdfWords('fr-FR').t.report.summary).toBe('Summary');
    expect(pdfWords(null).f.locale).toBe('en-US');
    // A tag the runtime refuses (stored by an older app) writes the en-US report, not an error.
    expect(pdfWords('xx-invalid-!!').f.locale).toBe('en-US');
  });

  it('German plurals follow the count', () => {
    expect(de.report.transactionsCount(1)).toBe('1 Transaktion im Zeitraum.');
    expect(de.report.transactionsCount(1234)).toBe('1.234 Transaktionen im Zeitraum.');
    // The English report keeps its counts as plain digits, as it always printed them.
    expect(english(pdfFormat(null)).report.transactionsCount(1234)).toBe('1234 transactions in the period.');
  });
});
