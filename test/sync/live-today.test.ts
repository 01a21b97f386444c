import { parse } from 'csv-parse/sync';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { portfolioView } from '../../src/main/core/portfolio/view.ts';
import { exportCsv } from '../../src/main/core/reports/csv-reports.ts';
import { writeAtomically } from '../../src/main/core/reports/files.ts';
import { exportPdf } from '../../src/main/core/reports/pdf.ts';
import type { WritableDB } from '../../src/main/core/store/db.ts';
import { latestSnapshot } from '../../src/main/core/positions/store/snapshots.ts';
import { addWallet, listWallets } from '../../src/main/core/store/wallets.ts';
import type { LiquiditySnapshot, PositionSnapshot, UnderlyingSnapshot } from '../../src/shared/service/schemas.ts';
import { chainById } from '../../src/sim/chains.ts';
import type { LiveOptions } from '../../src/sim/live.ts';
import { DAY_MS, positionsOn } from '../../src/sim/positions.ts';
import { parseConventions } from '../../src/sim/conventions.ts';
import { liveSimOptions } from '../support/live.ts';
import { engineFor } from '../support/engine.ts';
import { SIM_NOW, useSimulator, WALLET } from '../support/sim.ts';
import { createDB, tempDir } from '../support/store.ts';

/**
 * The three views of "today" as one moment (issue 30, item 3). A live service's snapshot of today
 * moves between the three requests that fetch its views (positions, by token, liquidity); they
 * were stored as one snapshot, 8 positions in one view and 7 in another. Now they are compared on
 * the evidence every view carries (the positions, each one's quantities) and read again until they
 * agree; a service that moves on every request gets them stored flagged, and every place that
 * shows the snapshot says so.
 */
const eth = chainById('eth')!;
const TODAY = new Date(SIM_NOW).toISOString().slice(0, 10);

function stored(db: WritableDB) {
  const all = latestSnapshot(db, 'allPositions', WALLET, 'eth', TODAY)!;
  const grouped = latestSnapshot(db, 'positionsByUnderlying', WALLET, 'eth', TODAY)!;
  const liquidity = latestSnapshot(db, 'liquidityAnalysis', WALLET, 'eth', TODAY)!;
  const positions = (all.data as PositionSnapshot[]).flatMap((s) => s.positions);
  const lp = (liquidity.data as LiquiditySnapshot[]).flatMap((s) => s.positions);
  const breakdown = (grouped.data as UnderlyingSnapshot[]).flatMap((s) => s.positions.flatMap((g) => g.breakdown));
  const qty = (cid: string) => ({
    all: positions.find((p) => p.cid === cid)!.underlying.map((u) => u.qty),
    grouped: breakdown.filter((b) => b.cid === cid).map((b) => b.qty),
    liquidity: lp.find((p) => p.cid === cid)!.underlying.map((u) => u.qty),
  });
  return {
    counts: [positions.length, new Set(breakdown.map((b) => b.cid)).size, lp.length],
    firstQty: qty(positions[0]!.cid!),
    flags: [all, grouped, liquidity].map((s) => s.quality.filter((f) => f.path === 'views')),
  };
}

function setup(ctx: { sim: Parameters<typeof engineFor>[0] }) {
  const db = createDB();
  addWallet(db, { address: WALLET, chains: ['eth'] });
  return { db, ...engineFor(ctx.sim, db) };
}

/** The positions the simulator holds today in a state (0 as generated, 1 moved), from its own generator. */
function truth(live: LiveOptions, state: number) {
  const o = liveSimOptions(live, 2000);
  const today = positionsOn(
    { seed: 7, txnsPerWallet: 2000, historyStart: o.historyStart!, historyEnd: o.historyEnd! },
    WALLET,
    eth,
    Math.floor(SIM_NOW / DAY_MS),
  );
  return today.length - (live.today?.change === 'qty' ? 0 : state);
}

for (const change of ['row', 'qty'] as const) {
  describe(`live today (${change === 'row' ? 'a position closes' : 'a quantity moves'} between the requests)`, () => {
    const live: LiveOptions = { modes: ['today'], today: { at: 2, every: 5, change } };
    // A position that closes under the first reading; a quantity that moves under another (snapshot dates as Unix milliseconds).
    const ctx = useSimulator({ ...liveSimOptions(live), conventions: parseConventions(change === 'row' ? [] : ['datetime=unix-ms']) });

    it('the views are read again until they agree, and stored as one moment, unflagged', async () => {
      const { db, engine } = setup(ctx);
      const job = engine.syncPositions(WALLET);
      expect(await job.result).toEqual([TODAY]);
      expect(engine.jobs().find((j) => j.id === job.info.id)!.completeness?.state ?? 'complete').toBe('complete');
      // The first three requests straddled a change (as generated, as generated, moved): read again.
      const served = ctx.sim.live!.todayServed(WALLET, eth);
      expect(served.slice(0, 3)).toEqual([0, 0, 1]);
      expect(served).toHaveLength(6);
      const state = served.at(-1)!;
      expect(served.slice(3)).toEqual([state, state, state]);
      const s = stored(db);
      expect(s.counts).toEqual([truth(live, state), truth(live, state), truth(live, state)]);
      expect(s.firstQty.grouped).toEqual(s.firstQty.all);
      expect(s.firstQty.liquidity).toEqual(s.firstQty.all);
      expect(s.flags).toEqual([[], [], []]);
      expect(portfolioView(db, listWallets(db), TODAY).members[0]!.moment).toBeNull();
    });
  });
}

describe('live today, a snapshot that moves on every request', () => {
  const live: LiveOptions = { modes: ['today'], today: { at: 2, every: 1 } };
  const ctx = useSimulator(liveSimOptions(live));

  async function csv(db: WritableDB) {
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    await exportCsv(db, { report: 'positions', date: TODAY }, out);
    return parse(Buffer.concat(chunks).toString('utf8'), { columns: true, bom: true }) as Array<Record<string, string>>;
  }

  it('is stored flagged after a bounded number of reads, and the job, the coverage, the CSV and the PDF say the views are not of one moment', async () => {
    const { db, engine } = setup(ctx);
    const job = engine.syncPositions(WALLET);
    await job.result;
    expect(ctx.sim.live!.todayServed(WALLET, eth)).toHaveLength(12);
    const completeness = engine.jobs().find((j) => j.id === job.info.id)!.completeness!;
    expect(completeness.state).toBe('incomplete');
    expect(completeness.reasons).toEqual([
      "the three views (positions, by token, liquidity) of 1 snapshot did not agree in 4 reads: the service's snapshot changed between the requests; stored, flagged as not one moment",
    ]);
    const s = stored(db);
    for (const f of s.flags) {
      expect(f).toHaveLength(1);
      expect(f[0]!.value).toMatch(
        /^the positions view lists \d+ positions, the by-token view \d+ and the liquidity view \d+ \(4 reads; the service's answers changed/,
      );
    }
    // The portfolio view's coverage names it; no value is taken for unreadable, the totals stand.
    const view = portfolioView(db, listWallets(db), TODAY);
    const m = view.members[0]!;
    expect(m.moment).toMatch(/^the three views \(positions, by token, liquidity\) are not of one moment: the positions view lists/);
    expect(m.quality.all).toContain('are not of one moment');
    expect(m.unreadable).toBe(0);
    expect(view.unreadableValues).toBe(0);
    expect(view.totals.total).not.toBeNull();
    // The CSV's rows carry it; the PDF's summary and its data-quality table say it.
    const rows = await csv(db);
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect(r['data_quality']).toMatch(/not of one moment: the positions view lists/);
    const path = join(tempDir(), 'today.pdf');
    await writeAtomically(path, (out) => exportPdf(db, { date: TODAY }, out));
    const text = execFileSync('pdftotext', ['-layout', path, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
    expect(text).toContain('The three views of 1 wallet chain (positions, by token, liquidity) are not of one moment');
    expect(text).toMatch(/views .*the positions view lists/);
  });
});
