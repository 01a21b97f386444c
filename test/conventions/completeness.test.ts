import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { judgeLogs } from '../../src/main/core/service/paging.ts';
import { exportCompleteness } from '../../src/main/core/reports/export-job.ts';
import { writeAtomically } from '../../src/main/core/reports/files.ts';
import { exportPdf } from '../../src/main/core/reports/pdf.ts';
import { conventionsReport, listAnomalies, loadConventions, saveLearnedPoints, saveObservedPoints } from '../../src/main/core/service/store/conventions.ts';
import { timelinePage } from '../../src/main/core/ledger/store/timeline.ts';
import { countTransactions, listRanges, saveRange } from '../../src/main/core/transactions/store/transactions.ts';
import { addWallet } from '../../src/main/core/store/wallets.ts';
import { chainById } from '../../src/sim/chains.ts';
import { parseConventions } from '../../src/sim/conventions.ts';
import { DEFAULT_HISTORY_END, DEFAULT_HISTORY_START, startSimulator } from '../../src/sim/server.ts';
import { historyOf, logAt, logCount, timeOf, transactionAt } from '../../src/sim/transactions.ts';
import { engineFor } from '../support/engine.ts';
import { KEY, SIM_NOW, useSimulator, WALLET } from '../support/sim.ts';
import { createDB, tempDir } from '../support/store.ts';

/**
 * Where the client cannot be right, it says so: readings no client can page or range
 * correctly end "incomplete" with why (never "ok" with wrong figures); an anomaly makes it
 * learn again; reports say whether their transactions are complete.
 */
const SEED = 7;
const TXNS = 120;
const ctx = useSimulator({ txnsPerWallet: TXNS, seed: SEED });
afterEach(() => {
  ctx.sim.setConventions({});
  ctx.sim.setFaults([]);
});
const h = historyOf({ seed: SEED, txnsPerWallet: TXNS, historyStart: DEFAULT_HISTORY_START, historyEnd: DEFAULT_HISTORY_END }, WALLET, chainById('eth')!);

function setup(nowMs = SIM_NOW) {
  const db = createDB();
  addWallet(db, { address: WALLET, chains: ['eth'] });
  const clock = { nowMs };
  return { db, clock, ...engineFor(ctx.sim, db, { now: () => clock.nowMs }) };
}

describe('readings the client cannot read whole', () => {
  it('a service that ignores the time range: rows outside the range are an anomaly, the range stays incomplete until a read proves it', async () => {
    ctx.sim.setConventions(parseConventions(['time-range=ignored']));
    const { db, engine, clock } = setup(timeOf(h, 40) * 1000);
    const [first] = await engine.syncTransactions(WALLET).result;
    expect(first!.complete).toBe(false);
    expect(first!.reasons.join()).toMatch(/outside the range asked/);
    expect(listAnomalies(db, { openOnly: true }).map((a) => a.kind)).toEqual(['rows-outside-range']);
    expect(timelinePage(db, { wallet: WALLET }).incompleteReasons.join()).toMatch(/eth: the service returned \d+ row\(s\) dated outside/);
    // Re-learned once after the anomaly (same reading found), so still unresolved.
    expect(conventionsReport(db).anomalies[0]!.resolvedAt).toBeNull();

    clock.nowMs = SIM_NOW;
    const [second] = await engine.syncTransactions(WALLET).result;
    expect(second!.complete).toBe(true);
    expect(countTransactions(db, WALLET)).toBe(TXNS);
    expect(listAnomalies(db, { openOnly: true })).toEqual([]);
  });

  it('a service that ignores the page number with a 25-row cap: 25 rows stored and said to be incomplete', async () => {
    ctx.sim.setConventions(parseConventions(['paging=ignored', 'page-size-cap=25']));
    const { db, engine } = setup();
    const [r] = await engine.syncTransactions(WALLET).result;
    expect(loadConventions(db).pagingWorks).toBe(false);
    expect(r!.complete).toBe(false);
    expect(r!.reasons.join()).toMatch(/ignores the page number: only the first 25 rows/);
    expect(countTransactions(db, WALLET)).toBe(25);
    expect(listRanges(db, WALLET, 'eth').map((x) => x.state)).toEqual(['incomplete']);
  });

  it('re-learns when the whole history comes back empty while positions show activity', async () => {
    const { db, engine } = setup();
    await engine.syncPositions(WALLET).result;
    // What was learned before says seconds; the service now reads milliseconds.
    saveLearnedPoints(
      db,
      [
        { key: 'timeUnit', value: 's', status: 'learned', evidence: 'test' },
        { key: 'bounds', value: 'inclusive', status: 'learned', evidence: 'test' },
      ],
      { requests: 0, wallet: WALLET, complete: true },
    );
    ctx.sim.setConventions(parseConventions(['time-unit=ms']));
    const [r] = await engine.syncTransactions(WALLET).result;
    expect(loadConventions(db).timeUnit).toBe('ms');
    expect(r!.complete).toBe(true);
    expect(countTransactions(db, WALLET)).toBe(TXNS);
    const anomalies = listAnomalies(db);
    expect(anomalies.map((a) => a.kind)).toEqual(['empty-history-with-positions']);
    expect(anomalies[0]!.resolvedAt).not.toBeNull();
  });

  it('forgets a logs total learned wrong when a read does not fit it, and reads again', async () => {
    ctx.sim.setConventions(parseConventions(['logs-total=pages', 'logs-page-cap=50']));
    const { db, engine } = setup();
    saveObservedPoints(db, [{ key: 'logsTotal', value: 'logs', status: 'learned', evidence: 'test: learned wrong' }]);
    const txn = Array.from({ length: TXNS }, (_, i) => transactionAt(h, i)).find((t) => logCount(SEED, t) >= 120)!;
    const set = await engine.logs('eth', txn.txn_hash);
    expect(set).toMatchObject({ complete: true, note: null });
    expect(set.logs.map((l) => l.data)).toEqual(Array.from({ length: logCount(SEED, txn) }, (_, j) => logAt(SEED, txn, j).data));
    expect(loadConventions(db).logsTotal).toBe('pages');
  });

  it('re-learns on a later sync when history stored empty meets positions that show activity', async () => {
    const { db, engine } = setup();
    saveLearnedPoints(
      db,
      [
        { key: 'timeUnit', value: 's', status: 'learned', evidence: 'test' },
        { key: 'bounds', value: 'inclusive', status: 'learned', evidence: 'test' },
      ],
      { requests: 0, wallet: WALLET, complete: true },
    );
    ctx.sim.setConventions(parseConventions(['time-unit=ms']));
    // No positions cached yet: an empty history is all the client can see.
    const [first] = await engine.syncTransactions(WALLET).result;
    expect(first!.complete).toBe(true);
    expect(countTransactions(db, WALLET)).toBe(0);
    await engine.syncPositions(WALLET).result;
    const [second] = await engine.syncTransactions(WALLET).result;
    expect(loadConventions(db).timeUnit).toBe('ms');
    expect(second!.complete).toBe(true);
    expect(countTransactions(db, WALLET)).toBe(TXNS);
    expect(listAnomalies(db, { openOnly: true })).toEqual([]);
    expect(listAnomalies(db).map((a) => a.kind)).toEqual(['empty-history-with-positions']);
  });

  it('a wallet with positions but no transactions the service will show: incomplete with why, learned again once, not on every sync', async () => {
    // A service whose histories all start after "now": positions, but no transaction to read.
    const sim = await startSimulator({
      accessKey: KEY,
      seed: SEED,
      now: () => SIM_NOW,
      txnsPerWallet: 50,
      historyStart: SIM_NOW / 1000 + 86_400 * 30,
      historyEnd: SIM_NOW / 1000 + 86_400 * 60,
    });
    try {
      const db = createDB();
      addWallet(db, { address: WALLET, chains: ['eth'] });
      const { engine } = engineFor(sim, db);
      await engine.syncPositions(WALLET).result;
      const probes = () => sim.requests.filter((r) => r.endpoint === 'transactionsByWallet' && r.query['pageSize'] === '2').length;
      const perSync: number[] = [];
      for (let i = 0; i < 3; i++) {
        const before = probes();
        const [r] = await engine.syncTransactions(WALLET).result;
        perSync.push(probes() - before);
        expect(r!.complete).toBe(false);
        expect(r!.reasons.join()).toMatch(/whole history came back empty although the wallet holds positions/);
      }
      // Nothing to learn from (no history in any reading): only the four two-row probes a sync,
      // plus one forced run (four more) the first time the anomaly is seen.
      expect(perSync).toEqual([8, 4, 4]);
      expect(listAnomalies(db, { openOnly: true }).map((a) => a.kind)).toEqual(['empty-history-with-positions']);
    } finally {
      await sim.close();
    }
  });

  it('a transient status other than OK during learning and paging is asked again: exact figures, complete', async () => {
    ctx.sim.setConventions(parseConventions(['page-size-cap=25', 'page-base=0']));
    ctx.sim.setFaults([{ kind: 'status-not-ok', endpoint: 'transactionsByWallet', times: 2 }]);
    const { db, engine } = setup();
    const [r] = await engine.syncTransactions(WALLET).result;
    expect(ctx.sim.requests.filter((x) => x.fault === 'status-not-ok')).toHaveLength(2);
    expect(r!.complete).toBe(true);
    expect(countTransactions(db, WALLET)).toBe(TXNS);
  });

  it('a cache synced before any learning (empty "complete" history, as an old client stored it) is read again under what is learned', async () => {
    const { db, engine } = setup();
    saveRange(db, {
      wallet: WALLET,
      chain: 'eth',
      startTime: 0,
      endTime: Math.floor(SIM_NOW / 1000),
      state: 'complete',
      nextPage: null,
      pageSize: 100,
      startBlock: null,
      endBlock: null,
      completionRatio: 1,
      rowsRead: 0,
      updatedAt: 't',
      reason: null,
    });
    ctx.sim.setConventions(parseConventions(['time-unit=ms']));
    const [r] = await engine.syncTransactions(WALLET).result;
    expect(r!.complete).toBe(true);
    expect(countTransactions(db, WALLET)).toBe(TXNS);
  });

  it('judges a logs read against total: a count that fits neither meaning is incomplete, with why', () => {
    const read = (n: number, total: number, pageSizes: number[]) => ({
      count: n,
      total,
      pages: pageSizes.length,
      pageSizes,
      pageSize: 1000,
      logIndexRepeats: false,
    });
    expect(judgeLogs(read(7, 10, [7]))).toMatchObject({
      complete: false,
      note: expect.stringMatching(/read 7 logs in 1 page\(s\), but the service's total is 10/),
    });
    expect(judgeLogs(read(7, 7, [7]))).toMatchObject({ complete: true, learned: { logsTotal: 'logs' } });
    expect(judgeLogs(read(150, 3, [50, 50, 50]))).toMatchObject({ complete: true, learned: { logsTotal: 'pages', logsPageCap: 50, logIndex: 'global' } });
    expect(judgeLogs(read(150, 3, [50, 50, 50]), 'logs').complete).toBe(false);
    // A read a bound stopped is never whole, even when its count happens to equal total, and teaches nothing.
    const stopped = 'the logs read stopped after 7 logs (the most kept for one transaction)';
    expect(judgeLogs({ ...read(7, 7, [7]), stopped })).toEqual({ complete: false, note: stopped, learned: {} });
  });
});

describe('the service check', () => {
  it.each([
    [[], 'logs', 'global'],
    [['logs-total=pages', 'log-index=per-page', 'page-base=0'], 'pages', 'per-page'],
  ] as const)('learns again on demand, and probes the logs endpoint: %j', async (pairs, logsTotal, logIndex) => {
    ctx.sim.setConventions(parseConventions([...pairs]));
    const { engine } = setup();
    await engine.syncTransactions(WALLET).result;
    const mark = ctx.sim.requests.length;
    const report = await engine.checkService();
    const asked = ctx.sim.requests.slice(mark);
    // Bounded: one learning run (at most 10 + 12 requests) and at most three logs probes of six pages.
    expect(asked.length).toBeLessThanOrEqual(22 + 18);
    const point = (key: string) => report.points.find((p) => p.key === key)!;
    expect(point('logsTotal')).toMatchObject({ status: 'learned', value: logsTotal });
    expect(point('logIndex')).toMatchObject({ status: 'learned', value: logIndex });
    expect(point('pageBase')).toMatchObject({ status: 'learned', value: pairs.length ? '0-based' : '1-based' });
    expect(report.learnedAt).not.toBeNull();
  });
});

describe('reports say whether their transactions are complete', () => {
  it('the PDF and the export say "Incomplete" with why while the service is indexing, "Complete" once proved', async () => {
    const { db, engine } = setup();
    await engine.syncPositions(WALLET, { date: '2026-10-01' }).result;
    ctx.sim.setFaults([{ kind: 'incomplete', recentDays: 20 }]);
    await engine.syncTransactions(WALLET).result;
    const req = { wallet: WALLET, date: '2026-10-01', from: '2026-09-01', to: '2026-11-01' };
    const pdfText = async () => {
      const path = join(tempDir(), 'r.pdf');
      await writeAtomically(path, (out) => exportPdf(db, req, out));
      return execFileSync('pdftotext', ['-layout', path, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
    };
    let text = await pdfText();
    expect(text).toMatch(/Incomplete: these transactions may not be all of the period\. 0x5a0b54d5… eth: the service has indexed [\d.]+% of the range asked/);
    expect(exportCompleteness(db, req)).toMatchObject({ state: 'incomplete', action: 'Sync again, then export again.' });

    ctx.sim.setFaults([]);
    await engine.syncTransactions(WALLET).result;
    text = await pdfText();
    expect(text).toContain('Complete: every transaction of the period was synced and proved complete.');
    // (The reconciliation section may still say its own "Incomplete:": no positions are cached for the period's start.)
    expect(text).not.toContain('Incomplete: these transactions');
    expect(exportCompleteness(db, req).state).toBe('complete');
  });
});
