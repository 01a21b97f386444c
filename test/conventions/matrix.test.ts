import { describe, expect, it } from 'vitest';
import { conventionsReport, learningState, loadConventions } from '../../src/main/core/service/store/conventions.ts';
import { listRanges } from '../../src/main/core/transactions/store/transactions.ts';
import { addWallet } from '../../src/main/core/store/wallets.ts';
import { chainById } from '../../src/sim/chains.ts';
import { type Conventions, describeConventions, parseConventions } from '../../src/sim/conventions.ts';
import { DEFAULT_HISTORY_END, DEFAULT_HISTORY_START } from '../../src/sim/server.ts';
import { historyOf, logAt, logCount, timeOf, transactionAt } from '../../src/sim/transactions.ts';
import { engineFor } from '../support/engine.ts';
import { SIM_NOW, useSimulator, WALLET } from '../support/sim.ts';
import { createDB } from '../support/store.ts';

/**
 * The real client (sync engine, SQLite store) against every alternative reading of the spec's
 * open points the simulator plays, alone and in every pair. Expected figures come from the
 * simulator's generator directly (which transactions exist, their fees, their logs), never
 * from what the client stored.
 */
const SEED = 7;
const TXNS = 120;
const ctx = useSimulator({ txnsPerWallet: TXNS, seed: SEED });

const READINGS = [
  'page-base=0',
  // 25 is proven while learning (the first sync sees 31 rows); 50 only during the second sync.
  'page-size-cap=25',
  'page-size-cap=50',
  // A larger pageSize refused (400): the client finds the largest accepted.
  'page-size-max=100',
  'time-unit=ms',
  'bounds=half-open',
  'bounds=exclusive',
  'order=oldest-first',
  'order=unordered',
  'past-end=repeat-last',
  'logs-total=pages',
  'log-index=per-page',
  'logs-page-cap=50',
];
const key = (r: string) => r.split('=')[0];
const PAIRS: string[][] = [];
for (let i = 0; i < READINGS.length; i++) {
  for (let j = i + 1; j < READINGS.length; j++) if (key(READINGS[i]!) !== key(READINGS[j]!)) PAIRS.push([READINGS[i]!, READINGS[j]!]);
}
const CASES: string[][] = [[], ...READINGS.map((r) => [r]), ...PAIRS];

// --- the truth, from the generator --------------------------------------------------------
const chain = chainById('eth')!;
const h = historyOf({ seed: SEED, txnsPerWallet: TXNS, historyStart: DEFAULT_HISTORY_START, historyEnd: DEFAULT_HISTORY_END }, WALLET, chain);
const all = Array.from({ length: TXNS }, (_, i) => transactionAt(h, i));
/** A first sync ends exactly at a transaction's time, so a bound that excludes it would lose it. */
const MID = 30;
const midS = timeOf(h, MID);
const upTo = (s: number) => all.filter((t) => Date.parse(t.date!) / 1000 <= s);
const feeSum = (ts: typeof all) => ts.reduce((s, t) => s + (t.txn_fee ?? 0), 0);
const manyLogs = all.find((t) => logCount(SEED, t) >= 120)!;
const fewLogs = all.find((t) => logCount(SEED, t) >= 3 && logCount(SEED, t) <= 9)!;
const logData = (t: (typeof all)[number]) => Array.from({ length: logCount(SEED, t) }, (_, j) => logAt(SEED, t, j).data);

function stored(db: ReturnType<typeof createDB>) {
  return db
    .prepare(
      'SELECT count(*) AS n, count(DISTINCT txn_hash) AS d, sum(txn_fee) AS fees, min(time) AS first, max(time) AS last FROM transactions WHERE wallet = ? AND chain = ?',
    )
    .get(WALLET, 'eth') as {
    n: number;
    d: number;
    fees: number;
    first: number;
    last: number;
  };
}

describe('conventions matrix: the client against every reading and every pair', () => {
  it('has the cases it claims (defaults, each reading, each pair of different points)', () => {
    expect(manyLogs).toBeDefined();
    expect(fewLogs).toBeDefined();
    expect(upTo(midS).length).toBe(MID + 1);
    expect(CASES.length).toBe(1 + READINGS.length + PAIRS.length);
  });

  it.each(CASES.map((c) => [c.join(' ') || 'defaults', c] as const))('%s', async (_name, pairs) => {
    const conv: Conventions = parseConventions(pairs);
    ctx.sim.setConventions(conv);
    const db = createDB();
    addWallet(db, { address: WALLET, chains: ['eth'] });
    let nowMs = midS * 1000;
    const { engine } = engineFor(ctx.sim, db, { now: () => nowMs });

    // First sync, up to a transaction's exact time.
    const [first] = await engine.syncTransactions(WALLET).result;
    expect(first!.reasons).toEqual([]);
    expect(first!.complete).toBe(true);
    let s = stored(db);
    const expected1 = upTo(midS);
    expect(s.n).toBe(expected1.length);
    expect(s.d).toBe(expected1.length);
    expect(s.fees).toBeCloseTo(feeSum(expected1), 9);
    const learnedRequests = learningState(db).requests;
    const probesAfterFirst = ctx.sim.requests.filter((r) => r.query['pageSize'] === '2').length;

    // Second sync to now: the range continues exactly after the first.
    nowMs = SIM_NOW;
    const [second] = await engine.syncTransactions(WALLET).result;
    expect(second!.reasons).toEqual([]);
    expect(second!.complete).toBe(true);
    s = stored(db);
    expect(s.n).toBe(TXNS);
    expect(s.d).toBe(TXNS);
    expect(s.fees).toBeCloseTo(feeSum(all), 9);
    expect(s.first).toBe(Date.parse(all[0]!.date!));
    expect(s.last).toBe(Date.parse(all.at(-1)!.date!));
    expect(listRanges(db, WALLET, 'eth').every((r) => r.state === 'complete')).toBe(true);
    // Learned once per service, not per sync.
    expect(learningState(db).requests).toBe(learnedRequests);
    expect(ctx.sim.requests.filter((r) => r.query['pageSize'] === '2').length).toBe(probesAfterFirst);

    // What was learned matches the reading played.
    const learned = loadConventions(db);
    expect(learned.pageBase).toBe(conv.pageBase);
    expect(learned.timeUnit).toBe(conv.timeUnit);
    expect(learned.bounds).toBe(conv.bounds);
    expect(learned.order).toBe(conv.order);
    expect(learned.pastEnd).toBe(conv.pastEnd);
    expect(learned.pageSizeMax).toBe(conv.pageSizeMax);
    if (conv.pageSizeCap !== null) expect([learned.pageSizeCap, learned.capProven]).toEqual([conv.pageSizeCap, true]);

    // Logs: every log, in order, none overwriting another, proved whole.
    for (const t of [manyLogs, fewLogs]) {
      const set = await engine.logs('eth', t.txn_hash);
      expect(set.note).toBeNull();
      expect(set.complete).toBe(true);
      expect(set.logs.map((l) => l.data)).toEqual(logData(t));
    }
    const report = conventionsReport(db);
    expect(report.anomalies.filter((a) => a.resolvedAt === null)).toEqual([]);
    if (conv.logsTotal === 'pages') expect(loadConventions(db).logsTotal).toBe('pages');
    if (conv.logIndex === 'per-page' && conv.logsPageCap !== null) expect(loadConventions(db).logIndex).toBe('per-page');
    expect(describeConventions(conv)).toBe(pairs.join(' ') || 'defaults');
  });
});
