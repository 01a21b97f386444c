import { parse } from 'csv-parse/sync';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { parseEnvelope } from '../../src/main/core/service/client.ts';
import { BadResponseError } from '../../src/main/core/service/errors.ts';
import { csvCell } from '../../src/main/core/reports/csv.ts';
import { exportCsv, type CsvRequest } from '../../src/main/core/reports/csv-reports.ts';
import { writeAtomically } from '../../src/main/core/reports/files.ts';
import { exportPdf } from '../../src/main/core/reports/pdf.ts';
import type { WritableDB } from '../../src/main/core/store/db.ts';
import { navHistory } from '../../src/main/core/positions/store/nav.ts';
import { exposureAt } from '../../src/main/core/portfolio/view.ts';
import { latestSnapshot } from '../../src/main/core/positions/store/snapshots.ts';
import { addWallet } from '../../src/main/core/store/wallets.ts';
import { decimalSum, plainDecimal } from '../../src/shared/decimal.ts';
import { parseJsonLenient } from '../../src/shared/service/normalize.ts';
import { positionSnapshot } from '../../src/shared/service/schemas.ts';
import { chainById } from '../../src/sim/chains.ts';
import { DAY_MS, positionsOn } from '../../src/sim/positions.ts';
import { BAD_VALUES, DATETIME_READINGS } from '../../src/sim/readings.ts';
import { allPositionsView, byUnderlyingView } from '../../src/sim/views.ts';
import { DEFAULT_HISTORY_END, DEFAULT_HISTORY_START } from '../../src/sim/server.ts';
import { engineFor } from '../support/engine.ts';
import { useSimulator, WALLET } from '../support/sim.ts';
import { createDB, tempDir } from '../support/store.ts';

/**
 * Values (issue 12, item 6): a bad value in one float member is nulled and flagged, never
 * a reason to drop the whole snapshot and never a number; the rest is stored and summed;
 * CSV numbers are exact; sums carry no float noise.
 */

describe('numbers written exactly', () => {
  it('writes 1e+30 and other exponent forms in plain decimal that reads back as the same double', () => {
    expect(csvCell(1e30)).toBe('1' + '0'.repeat(30));
    expect(csvCell(-1.5e-7)).toBe('-0.00000015');
    expect(csvCell(1.2345e21)).toBe('1234500000000000000000');
    // Every double reads back from its text as itself, and no text has an exponent.
    const samples = [1e30, 1e21, 9.99e20, 1e-7, 5e-324, Number.MAX_VALUE, -Number.MAX_VALUE, 123.456, 0.1, 985.91, 2 ** 53 + 2, -0.000001, 1 / 3];
    let x = 0.7;
    for (let i = 0; i < 2000; i++) {
      x = (x * 9301 + 49297) % 233280; // a fixed pseudo-random walk over many magnitudes
      samples.push((x / 233280 - 0.5) * 10 ** ((i % 80) - 40));
    }
    for (const n of samples) {
      const text = csvCell(n);
      expect(text, String(n)).not.toMatch(/e/i);
      expect(Number(text), text).toBe(n);
      expect(text).toBe(plainDecimal(n));
    }
  });

  it('sums decimals exactly: no float noise', () => {
    expect(decimalSum([0.1, 0.2])).toBe(0.3);
    expect(decimalSum([-0.1, 0.3])).toBe(0.2);
    expect(decimalSum([1e30, 1])).toBe(1e30 + 1);
    // 2-decimal figures whose float sum shows noise, checked against integer cents.
    let noisy = 0;
    for (let a = 1; a < 400; a++) {
      const terms = [a * 1.37 + 0.01, 492.95, 0.07 * a].map((v) => Math.round(v * 100) / 100);
      const cents = terms.reduce((s, v) => s + Math.round(v * 100), 0);
      if (terms.reduce((s, v) => s + v, 0) !== cents / 100) noisy++;
      expect(decimalSum(terms)).toBe(cents / 100);
    }
    expect(noisy).toBeGreaterThan(10); // the case exists, so the test can fail
  });
});

const ENVELOPE = (positions: string) =>
  `{"status":"OK","message":"Get Positions (ID: 00ff) succeed.","data":[{"wallet_id":"${WALLET}","date":"2025-06-01T00:00:00Z","positions":[${positions}]}]}`;
const POSITION = (principal: string, name = 'Pool') =>
  `{"asset_type":"wallet","name":"${name}","principal_nav":${principal},"reward_nav":1.5,"underlying":[{"internal_id":"t1","qty":2,"nav":3}]}`;

describe('parsing a position response with a bad value', () => {
  it.each([
    ['bare NaN', 'NaN', '"NaN"'],
    ['bare Infinity', 'Infinity', '"Infinity"'],
    ['bare -Infinity', '-Infinity', '"-Infinity"'],
    ['"NaN"', '"NaN"', '"NaN"'],
    ['"Infinity"', '"Infinity"', '"Infinity"'],
    ['1e400', '1e400', 'Infinity (out of range)'],
    ['-1e400', '-1e400', '-Infinity (out of range)'],
    ['text', '"n/a"', '"n/a"'],
    ['a thousands separator', '"1,000.5"', '"1,000.5"'],
  ])('%s: that member is null and flagged, the rest is kept', (_name, bad, shown) => {
    const body = ENVELOPE(`${POSITION('10.25')},${POSITION(bad, 'NaN Infinity Pool')},${POSITION('7.5')}`);
    const res = parseEnvelope('allPositions', positionSnapshot, body, 'http://x/', '2025-06-05T00:00:00.000Z', 1);
    const positions = res.data[0]!.positions;
    expect(positions.map((p) => p.principal_nav)).toEqual([10.25, null, 7.5]);
    expect(positions.map((p) => p.reward_nav)).toEqual([1.5, 1.5, 1.5]);
    expect(positions[1]!._invalid).toEqual({ principal_nav: shown });
    expect(positions[0]!._invalid).toBeUndefined();
    // Text that only looks like the bare tokens, inside strings, is left alone.
    expect(positions[1]!.name).toBe('NaN Infinity Pool');
    expect(res.flags).toEqual([{ path: 'data[0].positions[1].principal_nav', value: shown }]);
    expect(res.body).toBe(body); // the raw body stays as received
  });

  it('flags several bad values at once, in details too', () => {
    const body = ENVELOPE(
      `{"asset_type":"lending","principal_nav":NaN,"reward_nav":"x","underlying":[{"internal_id":"t1","qty":1e999,"nav":3,"details":{"exchange_rate":"NaN","liq_threshold":0.8}}]}`,
    );
    const res = parseEnvelope('allPositions', positionSnapshot, body, 'http://x/', '2025-06-05T00:00:00.000Z', 1);
    const p = res.data[0]!.positions[0]!;
    expect([
      p.principal_nav,
      p.reward_nav,
      p.underlying[0]!.qty,
      p.underlying[0]!.nav,
      p.underlying[0]!.details.exchange_rate,
      p.underlying[0]!.details.liq_threshold,
    ]).toEqual([null, null, null, 3, null, 0.8]);
    expect(res.flags!.map((f) => f.path).sort()).toEqual([
      'data[0].positions[0].principal_nav',
      'data[0].positions[0].reward_nav',
      'data[0].positions[0].underlying[0].details.exchange_rate',
      'data[0].positions[0].underlying[0].qty',
    ]);
  });

  it('still refuses a body of the wrong shape, naming the shape and not the bad value', () => {
    const body = ENVELOPE(`{"principal_nav":NaN,"underlying":[{"qty":1}]}`);
    expect(() => parseEnvelope('allPositions', positionSnapshot, body, 'http://x/', 'now', 1)).toThrow(BadResponseError);
    try {
      parseEnvelope('allPositions', positionSnapshot, body, 'http://x/', 'now', 1);
    } catch (err) {
      expect((err as BadResponseError).path).toBe('data[0].positions[0].underlying[0].internal_id');
    }
    expect(parseJsonLenient('{"a": NaN, "b": "NaN", "c": [Infinity, -Infinity]}')).toEqual({ a: 'NaN', b: 'NaN', c: ['Infinity', '-Infinity'] });
    expect(parseJsonLenient('{"a": Nope}')).toBeUndefined();
  });
});

// --- the real client against the simulator's bad-value readings ---------------------------

const ctx = useSimulator({ txnsPerWallet: 50 });
/** The simulator's history (its holdings follow its transactions). */
const SIM_HISTORY = { seed: 7, txnsPerWallet: 50, historyStart: DEFAULT_HISTORY_START, historyEnd: DEFAULT_HISTORY_END };
afterEach(() => ctx.sim.setConventions({}));

const DAY = '2025-06-01';
const eth = chainById('eth')!;
const model = () => positionsOn(SIM_HISTORY, WALLET, eth, Date.parse(`${DAY}T00:00:00Z`) / DAY_MS);
const cents = (xs: Array<number | null | undefined>) => xs.reduce<number>((s, v) => s + Math.round((v ?? 0) * 100), 0);

function setup(): { db: WritableDB } & ReturnType<typeof engineFor> {
  const db = createDB();
  addWallet(db, { address: WALLET, chains: ['eth'], label: 'Main' });
  return { db, ...engineFor(ctx.sim, db) };
}

/** What each reading's bad value is recorded as. */
const SHOWN: Record<Exclude<(typeof BAD_VALUES)[number], 'none'>, string> = {
  nan: '"NaN"',
  infinity: '"Infinity"',
  'nan-string': '"NaN"',
  huge: 'Infinity (out of range)',
  text: '"n/a"',
};

const READINGS = BAD_VALUES.filter((b) => b !== 'none');

describe.each(READINGS)('the real client against bad-value=%s', (bad) => {
  it('principal_nav of the first position: stored null and flagged; the sum is of the rest, exactly', async () => {
    ctx.sim.setConventions({ badValue: bad, badField: 'principal_nav' });
    const { db, engine } = setup();
    expect(await engine.syncPositions(WALLET, { date: DAY }).result).toEqual([DAY]);
    const snap = latestSnapshot(db, 'allPositions', WALLET, 'eth', DAY)!;
    const view = allPositionsView('eth', model());
    expect(snap.data[0]!.positions).toHaveLength(view.length);
    expect(snap.data[0]!.positions[0]!.principal_nav).toBeNull();
    expect(snap.data[0]!.positions[0]!._invalid).toEqual({ principal_nav: SHOWN[bad] });
    expect(snap.quality).toEqual([{ path: 'data[0].positions[0].principal_nav', value: SHOWN[bad] }]);
    const principal = cents(view.slice(1).map((p) => p.principal_nav));
    const reward = cents(view.map((p) => p.reward_nav));
    expect(snap.principalNav).toBe(principal / 100);
    expect(snap.rewardNav).toBe(reward / 100);
    expect(snap.totalNav).toBe((principal + reward) / 100);
    // Every other position's figures as the model has them.
    expect(snap.data[0]!.positions.slice(1).map((p) => p.principal_nav)).toEqual(view.slice(1).map((p) => p.principal_nav));
    // The other endpoints have no principal_nav: nothing flagged there.
    expect(latestSnapshot(db, 'positionsByUnderlying', WALLET, 'eth', DAY)!.quality).toEqual([]);
    expect(navHistory(db, { wallet: WALLET }).points).toEqual([expect.objectContaining({ date: DAY, principalNav: principal / 100, flagged: 1 })]);
  });

  it('total_nav of the first token (positions by underlying): flagged there, the NAV total is of the rest', async () => {
    ctx.sim.setConventions({ badValue: bad, badField: 'total_nav' });
    const { db, engine } = setup();
    await engine.syncPositions(WALLET, { date: DAY }).result;
    const groups = byUnderlyingView('eth', model());
    const snap = latestSnapshot(db, 'positionsByUnderlying', WALLET, 'eth', DAY)!;
    expect(snap.quality).toEqual([{ path: 'data[0].positions[0].total_nav', value: SHOWN[bad] }]);
    expect(snap.totalNav).toBe(cents(groups.slice(1).map((g) => g.total_nav)) / 100);
    expect(latestSnapshot(db, 'allPositions', WALLET, 'eth', DAY)!.quality).toEqual([]);
    // Exposure by token: that token is marked partial, its value is of the rest, the count is said.
    const exposure = exposureAt(db, DAY);
    expect(exposure.flagged).toBe(1);
    const token = exposure.tokens.find((t) => t.tokenId === groups[0]!.token_id)!;
    expect(token.unreadable).toBe(true);
    expect(token.totalNav).toBe(0);
    expect(exposure.tokens.filter((t) => t.unreadable)).toHaveLength(1);
  });
});

describe('a positions job with unreadable values', () => {
  it('finishes incomplete, saying how many values and what to do; a clean one says nothing', async () => {
    ctx.sim.setConventions({ badValue: 'nan', badField: 'principal_nav' });
    const { engine } = setup();
    const job = engine.syncPositions(WALLET, { date: DAY });
    await job.result;
    expect(engine.jobs().find((j) => j.id === job.info.id)!.completeness).toMatchObject({
      state: 'incomplete',
      reasons: ['the service sent 1 value that could not be read (not a number); stored as unknown and left out of totals'],
    });
    const fill = engine.backfill({ wallet: WALLET, from: '2025-06-02', to: '2025-06-04', every: 'day' });
    await fill.result;
    expect(engine.jobs().find((j) => j.id === fill.info.id)!.completeness?.reasons).toEqual([
      'the service sent 3 values that could not be read (not a number); stored as unknown and left out of totals',
    ]);
    ctx.sim.setConventions({});
    const clean = engine.syncPositions(WALLET, { date: '2025-06-05' });
    await clean.result;
    expect(engine.jobs().find((j) => j.id === clean.info.id)!.completeness?.state ?? 'complete').toBe('complete');
  });
});

describe('bad values in other members', () => {
  it.each(['nav', 'qty', 'liq_threshold', 'collateral_debt_ratio', 'reward_nav'])(
    '%s: the first one is null and flagged, nothing else changes',
    async (field) => {
      ctx.sim.setConventions({ badValue: 'nan', badField: field });
      const { db, engine } = setup();
      await engine.syncPositions(WALLET, { date: DAY }).result;
      const snap = latestSnapshot(db, 'allPositions', WALLET, 'eth', DAY)!;
      const view = allPositionsView('eth', model());
      expect(snap.quality).toHaveLength(1);
      expect(snap.quality[0]!.path.endsWith(`.${field}`)).toBe(true);
      const flaggedReward = field === 'reward_nav' ? 1 : 0;
      expect(snap.principalNav).toBe(cents(view.map((p) => p.principal_nav)) / 100);
      expect(snap.rewardNav).toBe(cents(view.slice(flaggedReward).map((p) => p.reward_nav)) / 100);
    },
  );
});

describe.each(DATETIME_READINGS)('pairs: datetime=%s with each bad value', (datetime) => {
  it.each(READINGS)('bad-value=%s', async (bad) => {
    ctx.sim.setConventions({ datetime, badValue: bad, badField: 'principal_nav' });
    const { db, engine } = setup();
    expect(await engine.syncPositions(WALLET, { date: DAY }).result).toEqual([DAY]);
    const snap = latestSnapshot(db, 'allPositions', WALLET, 'eth', DAY)!;
    const view = allPositionsView('eth', model());
    expect(snap.quality.map((f) => f.path)).toEqual(['data[0].positions[0].principal_nav']);
    expect(snap.principalNav).toBe(cents(view.slice(1).map((p) => p.principal_nav)) / 100);
  });
});

describe('data-quality notes in the reports', () => {
  async function csv(db: WritableDB, req: CsvRequest) {
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    await exportCsv(db, req, out);
    const text = Buffer.concat(chunks).toString('utf8');
    return { text, records: parse(text, { columns: true, bom: true }) as Array<Record<string, string>> };
  }

  it('CSV: the bad member is empty with a note on its rows; history notes the count and has no float noise', async () => {
    ctx.sim.setConventions({ badValue: 'huge', badField: 'principal_nav' });
    const { db, engine } = setup();
    await engine.backfill({ wallet: WALLET, from: '2025-06-01', to: '2025-06-03', every: 'day' }).result;
    const { records } = await csv(db, { report: 'positions', date: DAY });
    const first = model()[0]!;
    const rows = records.filter((r) => r['position_cid'] === first.cid);
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      expect(r['position_principal_nav_usd']).toBe('');
      expect(r['data_quality']).toContain('position.principal_nav unreadable (Infinity (out of range))');
    }
    expect(records.filter((r) => r['position_cid'] !== first.cid).every((r) => r['data_quality'] === '')).toBe(true);

    const history = await csv(db, { report: 'history', wallet: WALLET });
    expect(history.records.map((r) => r['date'])).toEqual(['2025-06-01', '2025-06-02', '2025-06-03']);
    for (const r of history.records) {
      const view = allPositionsView('eth', positionsOn(SIM_HISTORY, WALLET, eth, Date.parse(`${r['date']}T00:00:00Z`) / DAY_MS));
      const principal = cents(view.slice(1).map((p) => p.principal_nav));
      const reward = cents(view.map((p) => p.reward_nav));
      // Exactly the decimal the cents make: 985.91, never 985.9100000000001.
      expect(r['principal_nav_usd']).toBe(plainDecimal(principal / 100));
      expect(r['total_nav_usd']).toBe(plainDecimal((principal + reward) / 100));
      expect(r['total_nav_usd']!.split('.')[1]?.length ?? 0).toBeLessThanOrEqual(2);
      expect(r['data_quality']).toBe('1 unreadable value left out');
    }
  });

  it('PDF: a data-quality line in the summary and the flagged member listed', async () => {
    ctx.sim.setConventions({ badValue: 'text', badField: 'principal_nav' });
    const { db, engine } = setup();
    await engine.syncPositions(WALLET, { date: DAY }).result;
    const path = join(tempDir(), 'report.pdf');
    await writeAtomically(path, (out) => exportPdf(db, { date: DAY }, out));
    const text = execFileSync('pdftotext', ['-layout', path, '-'], { encoding: 'utf8' });
    expect(text).toContain('Data quality: 1 value the service sent could not be read');
    expect(text).toContain('data[0].positions[0].principal_nav');
    expect(text).toContain('"n/a"');
  });

  it('a clean cache has no data-quality note', async () => {
    const { db, engine } = setup();
    await engine.syncPositions(WALLET, { date: DAY }).result;
    const path = join(tempDir(), 'clean.pdf');
    await writeAtomically(path, (out) => exportPdf(db, { date: DAY }, out));
    expect(execFileSync('pdftotext', ['-layout', path, '-'], { encoding: 'utf8' })).not.toContain('Data quality');
    const { records } = await csv(db, { report: 'positions', date: DAY });
    expect(records.every((r) => r['data_quality'] === '')).toBe(true);
  });
});
