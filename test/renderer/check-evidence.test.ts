import { afterEach, describe, expect, it } from 'vitest';
import { createServiceClient } from '../../src/main/core/service/client.ts';
import { conventionItems, runServiceCheck } from '../../src/main/core/service/check.ts';
import { conventionsReport, recordAnomaly } from '../../src/main/core/service/store/conventions.ts';
import { checkEvidence, checkReading, checkValue, sayEvidence } from '../../src/renderer/src/lib/core-text.ts';
import { setLocale } from '../../src/renderer/src/lib/format.ts';
import { german } from '../../src/renderer/src/lib/words.de.ts';
import { english, setLanguage } from '../../src/renderer/src/lib/words.ts';
import { learnConventions } from '../../src/main/core/service/learn.ts';
import { CONVENTION_EVIDENCE, conventionEvidence, type EvidenceCode, readConventionEvidence } from '../../src/shared/convention-evidence.ts';
import type { ServiceCheck, ServiceCheckItem } from '../../src/shared/model.ts';
import { KEY, useSimulator, WALLET } from '../support/sim.ts';
import { createDB } from '../support/store.ts';

/**
 * The service check's evidence lines on a German screen (issue 39: every text of one screen in one
 * language). The core sends each finding's evidence as a code and values beside its English line;
 * the screen says it in German, keeping what the service sent (dates as sent, request IDs,
 * unreadable values) as sent. Run against the reference service in several of its readings.
 */
const ctx = useSimulator({ txnsPerWallet: 60 });
afterEach(() => {
  ctx.sim.setConventions({});
  setLocale(null);
  setLanguage('en-US');
});

async function check(key = KEY): Promise<ServiceCheck> {
  const client = createServiceClient({ baseUrl: ctx.sim.url, accessKey: key, policy: { maxAttempts: 1 } });
  return runServiceCheck({ client, baseUrl: ctx.sim.url, mode: 'live', wallet: WALLET, chain: 'eth', now: () => new Date('2026-11-20T12:30:00Z') });
}

/** Every finding of checks in readings that reach each evidence code the core writes against a service. */
async function findings(): Promise<ServiceCheckItem[]> {
  const items: ServiceCheckItem[] = [];
  for (const conventions of [
    {},
    { datetime: 'offset-east', badValue: 'nan', badField: 'principal_nav' },
    { datetime: 'space' },
    { datetime: 'unix-ms-string' },
  ] as const) {
    ctx.sim.setConventions(conventions);
    items.push(...(await check()).items);
  }
  ctx.sim.setConventions({});
  items.push(...(await check('wrong-key-123')).items);
  // The learned conventions and an anomaly, as Settings shows them after the check.
  const db = createDB();
  recordAnomaly(db, { kind: 'repeated-page', wallet: WALLET, chain: 'eth', detail: 'page 3 repeated page 2' }, '2026-11-19T08:15:00.000Z');
  items.push(...conventionItems(conventionsReport(db)));
  return items;
}

/** English sentences of the core's evidence lines: none may be left on a German screen. */
const ENGLISH =
  /\b(?:latest all_positions for|positions in|request ID|date sent|Nothing says|reads it as|the day written|asked the service|answers with|asked \d|no date in the answer|the service dated|written day|UTC day|position responses|numbers,|unreadable:|first date sent|no transactions for|not learned yet|learned \d|The service|Check the key)\b/;

describe('the service check’s evidence on a German screen', () => {
  it('reaches each evidence code; in English the words say the core’s line word for word', async () => {
    const items = await findings();
    const codes = new Set(items.map((i) => i.evidence?.code));
    expect([...codes].sort()).toEqual(
      ['anomaly', 'askedDated', 'convention', 'dateSent', 'daysAgree', 'daysDiffer', 'error', 'firstDateSent', 'floats', 'reached'].sort(),
    );
    setLocale('en-US');
    setLanguage('en-US');
    for (const i of items) {
      expect(checkEvidence(i), i.id).toBe(i.detail);
      expect(checkReading(i), i.id).toBe(i.value);
    }
    // The English words say each line as the core wrote it (so a changed core line fails here).
    for (const i of items) expect(sayEvidence(i.evidence!, english.serviceCheck), i.id).toBe(i.detail);
  });

  it('in German each evidence line is German, the service’s values kept as sent', async () => {
    const items = await findings();
    setLocale('de-DE');
    setLanguage('de-DE');
    const left = items.map((i) => [i.id, checkEvidence(i)] as const).filter(([, s]) => ENGLISH.test(s));
    expect(left).toEqual([]);
    const by = (code: string) => items.filter((i) => i.evidence?.code === code).map(checkEvidence);
    expect(by('reached')[0]).toMatch(/^neueste all_positions für 0x[0-9a-f]+ auf eth: \d+ Positionen? in \d+ ms(, Anfrage-ID \S+)?$/);
    expect(by('dateSent')).toContain('gesendetes Datum: 2026-11-21T01:00:00+02:00');
    expect(by('dateSent').some((s) => s.endsWith('. Nichts nennt seine Zone: Folioscope liest es als UTC.'))).toBe(true);
    expect(by('daysDiffer')[0]).toMatch(/^Der geschriebene Tag \(21\. Nov\. 2026\) und der UTC-Tag \(20\. Nov\. 2026\) unterscheiden sich/);
    // The date the service wrote stays as it wrote it; the days the core read from it are German.
    expect(by('askedDated')).toContain(
      '13. Nov. 2026 angefragt; der Dienst datierte die Antwort auf 2026-11-14T01:00:00+02:00 (geschriebener Tag 14. Nov. 2026, UTC-Tag 13. Nov. 2026)',
    );
    // Which response: the latest, or the day asked (in German); where and what: as sent.
    expect(by('floats').find((s) => s.includes('nicht lesbar'))).toMatch(
      /^in 2 Positionsantworten: \d+ Zahlen, 0 numerische Zeichenketten, \d+ null, 2 andere; nicht lesbar: neueste data\[0\]\.positions\[0\]\.principal_nav = "NaN", 13\. Nov\. 2026 data\[0\]\.positions\[0\]\.principal_nav = "NaN"$/,
    );
    expect(by('error')[0]).toMatch(/^Der Dienst hat den Zugangsschlüssel abgelehnt \(HTTP 401/);
    expect(by('convention')).toContain('noch nicht gelernt: Die erste Lesart des Clients gilt');
    // An anomaly's kind (its reading) in German; its detail is the core's record, as recorded.
    expect(items.filter((i) => i.evidence?.code === 'anomaly').map(checkReading)).toEqual(['wiederholte Seite']);
    expect(by('anomaly')[0]).toMatch(/^page 3 repeated page 2 \(0x[0-9a-f]+ auf eth\), 19\. Nov\. 2026, \d\d:\d\d/);
  });

  it('names several datetime forms in German, though one form’s name holds ", "', async () => {
    const item: ServiceCheckItem = {
      id: 'datetime-transactions',
      label: 'Datetimes (transactions)',
      value: 'ISO 8601, UTC, Unix seconds (number)',
      detail: 'first date sent: 2026-11-20T00:00:00Z',
      status: 'ok',
      forms: ['iso-utc', 'unix-s'],
    };
    setLocale('de-DE');
    setLanguage('de-DE');
    expect(checkReading(item)).toBe('ISO 8601, UTC, Unix-Sekunden (Zahl)');
    // A check saved by an older core has no codes: its reading is read back piece by piece.
    expect(checkValue('ISO 8601, UTC, Unix seconds (number)')).toBe('ISO 8601, UTC, Unix-Sekunden (Zahl)');
    expect(checkValue('Unix milliseconds (string), ISO 8601, UTC')).toBe('Unix-Millisekunden (Zeichenkette), ISO 8601, UTC');
    expect(checkReading({ value: 'ISO 8601 with a zone offset, unreadable', forms: ['offset', 'unreadable'] })).toBe('ISO 8601 mit Zonenversatz, nicht lesbar');
    // Every form the core names has German words (an untranslated one fails here).
    const en = english.serviceCheck.forms;
    setLanguage('de-DE');
    for (const code of Object.keys(en)) expect(checkReading({ value: en[code]!, forms: [code] }), code).not.toBe(code === 'iso-utc' ? 'x' : en[code]);
  });
});

describe('a learned convention’s evidence on a German screen', () => {
  /** One value for each name a template holds. */
  const sample: Record<string, string | number> = {
    max: 1000,
    min: 10,
    asked: 500,
    n: 1234,
    unit: 'ms',
    count: 7,
    total: 3,
    pages: 2,
    size: 5,
    cap: '24 h',
    hours: '2.5 h',
    set: 12,
    kind: 'indexed late',
    deep: '30.5 h',
    hash: '0xabcdef12',
    wallet: '0x5a0b54d5',
    chain: 'eth',
    margin: 2,
    evidence: conventionEvidence('timeUnitSeconds'),
  };
  const names = (t: string) => [...t.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

  it('reads every template back from the line the core writes, and German has each with the same values', () => {
    for (const code of Object.keys(CONVENTION_EVIDENCE) as EvidenceCode[]) {
      const line = conventionEvidence(code, sample);
      const read = readConventionEvidence(line);
      expect(read?.code, line).toBe(code);
      for (const name of names(CONVENTION_EVIDENCE[code])) expect(read!.values[name], `${code} {${name}}`).toBe(String(sample[name]));
      expect(names(german.serviceCheck.conventionEvidence[code]!), code).toEqual(names(CONVENTION_EVIDENCE[code]));
    }
  });

  it('says what the core learned from the service, in several of its readings, in German', async () => {
    const lines: string[] = [];
    for (const conventions of [
      {},
      { timeUnit: 'ms', pageBase: 0, bounds: 'half-open', order: 'oldest-first', pastEnd: 'repeat-last' },
      { bounds: 'exclusive' },
    ] as const) {
      ctx.sim.setConventions(conventions);
      const client = createServiceClient({ baseUrl: ctx.sim.url, accessKey: KEY, policy: { maxAttempts: 1 } });
      const { points } = await learnConventions(client, { wallet: WALLET, chain: 'eth', nowMs: Date.parse('2026-11-20T12:30:00Z') });
      lines.push(...points.map((p) => p.evidence));
    }
    expect(lines.length).toBeGreaterThan(20);
    // Every line the core wrote is one of the templates.
    expect(lines.filter((l) => !readConventionEvidence(l))).toEqual([]);
    setLocale('de-DE');
    setLanguage('de-DE');
    const item = (evidence: string): ServiceCheckItem => ({
      id: 'convention-x',
      label: 'x',
      value: 'x',
      detail: evidence,
      status: 'ok',
      evidence: { code: 'convention', evidence, learnedAt: '2026-11-20T12:30:00.000Z' },
    });
    const said = lines.map((l) => checkEvidence(item(l)));
    const english =
      /\b(?:returned|was refused|was empty|held it|differs from|was served|got \d|was accepted|rows of one page|included a row|missed a row|ranges are widened|learned)\b/;
    expect(said.filter((l) => english.test(l))).toEqual([]);
    expect(said).toContain('Seite 2 zu je zwei Zeilen unterscheidet sich von Seite 1 (gelernt 20. Nov. 2026, 12:30 UTC)');
    expect(said.some((l) => l.startsWith('[T, T] verfehlte eine Zeile zu T, [T, T+1] enthielt sie: Bereiche werden um eine Millisekunde erweitert'))).toBe(
      true,
    );
    // The recent window: the default, set in Settings, and widened by a restatement found (figures in German).
    const recent = conventionEvidence('recentSet', {
      evidence: conventionEvidence('recentWidened', {
        hours: '2 h',
        evidence: conventionEvidence('recentFound', {
          kind: 'indexed late',
          deep: '30.5 h',
          hash: '0xabcdef12',
          wallet: '0x5a0b54d5',
          chain: 'eth',
          margin: 2,
        }),
      }),
      set: 48,
    });
    expect(checkEvidence({ ...item(recent), evidence: { code: 'convention', evidence: recent, learnedAt: null } })).toBe(
      'erweitert von 2 h: eine Transaktion verspätet indiziert, 30,5 h hinter dem neuesten synchronisierten Verlauf (0xabcdef12… von 0x5a0b54d5… auf eth), mit einem Spielraum von 2 ×; in den Einstellungen auf mindestens 48 h gesetzt',
    );
  });
});
