import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { createCore } from '../../src/main/core/app.ts';
import { writeAtomically } from '../../src/main/core/reports/files.ts';
import { buildReportModel } from '../../src/main/core/reports/pdf-model.ts';
import { exportPdf } from '../../src/main/core/reports/pdf.ts';
import type { JobInfo, TimelinePage } from '../../src/shared/model.ts';
import { SIM_NOW, WALLET as A, WALLET_2 as B } from '../support/sim.ts';
import { cacheOf, tempDir } from '../support/store.ts';
import { waitForJobs } from '../support/jobs.ts';
import { demoStarter } from '../../src/sim/demo.ts';

const DATE = '2026-11-20';

/**
 * A wallet group scopes every operation the views use (timeline, NAV history, exposure),
 * the exports (through export.start) and the PDF; the service sends one principal_nav per
 * response as NaN, so a member's value is unreadable: the group's sums say so, never a
 * silently smaller total.
 */
describe('wallet groups scope the views, exports and the PDF', () => {
  it('covers the members only, and a member with an unreadable value makes the totals incomplete', async () => {
    const dir = tempDir();
    const core = await createCore({
      dataDir: dir,
      shell: 'web',
      baseUrl: null,
      demo: demoStarter({ txnsPerWallet: 300, now: () => SIM_NOW, conventions: { badValue: 'nan', badField: 'principal_nav' } }),
    });
    try {
      await core.call('wallets.add', { address: A, chains: ['eth'], label: 'Ops' });
      await core.call('wallets.add', { address: B, chains: ['eth'], label: 'Cold' });
      const jobs: JobInfo[] = [];
      for (const w of [A, B]) jobs.push(await core.call('sync.positions', { wallet: w, date: DATE }), await core.call('sync.transactions', { wallet: w }));
      await waitForJobs(core, jobs);
      const db = await cacheOf(core);
      // Each transaction sync left its wallet's daily transfer sums current over its own rows.
      for (const w of [A, B]) {
        const own = db.prepare('SELECT max(id) FROM transactions WHERE wallet = ?').pluck().get(w) as number;
        expect(db.prepare("SELECT built_to_id FROM transfer_days_state WHERE wallet = ? AND chain = 'eth'").pluck().get(w)).toBeGreaterThanOrEqual(own);
      }
      expect((db.prepare('SELECT count(*) FROM transfer_days').pluck().get() as number) > 0).toBe(true);
      const g = await core.call('groups.save', { name: 'Fund I', wallets: [A] });

      // Timeline: the member's rows only, the same rows as the wallet's own timeline.
      const pages = async (scope: { wallet?: string; group?: number }) => {
        const ids: number[] = [];
        let cursor: string | null = null;
        do {
          const p: TimelinePage = await core.call('timeline.page', { ...scope, limit: 100, ...(cursor && { cursor }) });
          ids.push(...p.rows.map((r) => r.id));
          for (const r of p.rows) if (scope.group) expect(r.wallet).toBe(A);
          cursor = p.nextCursor;
        } while (cursor);
        return ids;
      };
      const groupIds = await pages({ group: g.id });
      expect(groupIds.length).toBe(300);
      expect(groupIds).toEqual(await pages({ wallet: A }));
      expect((await pages({})).length).toBe(600);
      expect(await core.dispatch('timeline.page', { group: g.id, wallet: B })).toMatchObject({
        ok: false,
        error: { message: 'Choose a wallet or a group, not both.' },
      });

      // NAV history: the member's figures, its unreadable value counted as flagged (the view says so).
      const nav = await core.call('nav.history', { group: g.id });
      const navA = await core.call('nav.history', { wallet: A });
      const navAll = await core.call('nav.history', {});
      expect(nav.points.map((p) => [p.date, p.totalNav, p.chainsWatched, p.flagged])).toEqual(
        navA.points.map((p) => [p.date, p.totalNav, p.chainsWatched, p.flagged]),
      );
      expect(nav.points[0]!.flagged).toBeGreaterThan(0);
      expect(navAll.points[0]!.totalNav).not.toBe(nav.points[0]!.totalNav);

      // Exposure (by underlying, which has no principal_nav to spoil): tokens of the member only.
      const ex = await core.call('exposure.get', { date: DATE, group: g.id });
      expect(ex.tokens.length).toBeGreaterThan(0);
      expect(ex.tokens.flatMap((t) => t.wallets.map((w) => w.wallet)).every((w) => w === A)).toBe(true);
      const exAll = await core.call('exposure.get', { date: DATE });
      expect(exAll.tokens.some((t) => t.wallets.some((w) => w.wallet === B))).toBe(true);
      expect(ex.missing).toEqual([]);

      // The PDF model: members only; the position the service sent unreadable is counted and
      // the totals are the readable positions' sum, marked incomplete on the page.
      const model = buildReportModel(db, { date: DATE, wallets: g.wallets, groupName: g.name });
      expect(model.wallets.map((w) => w.address)).toEqual([A]);
      expect(model.positions.every((p) => p.wallet === A)).toBe(true);
      const unreadable = model.positions.filter((p) => p.position._invalid?.['principal_nav'] !== undefined);
      expect(unreadable.length).toBe(1);
      expect(model.unknownValues).toBe(1);
      const readable = model.positions.reduce((s, p) => s + (p.position.principal_nav ?? 0), 0);
      expect(model.totals.principal).toBeCloseTo(readable, 6);
      const pdf = join(dir, 'group.pdf');
      await writeAtomically(pdf, (out) => exportPdf(db, { date: DATE, wallets: g.wallets, groupName: g.name }, out));
      const text = execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' });
      expect(text).toContain('Portfolio report: Fund I');
      expect(text).toContain('Total NAV (incomplete)');
      expect(text).toContain('Principal (incomplete)');
      expect(text).not.toContain('Rewards (incomplete)'); // the unreadable value is a principal
      expect(text).toContain('could not be read');
      expect(text).toMatch(/Members\s+Ops 0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c/);
      expect(text).not.toContain(B);

      // Exports through the contract: every CSV report and the PDF take the group.
      const run = async (req: Parameters<typeof core.call<'export.start'>>[1]) => {
        const job = (await core.call('export.start', req)) as JobInfo;
        const done = (await waitForJobs(core, [job], { failed: 'return' }))[0]!;
        expect(done.state, done.error?.message).toBe('done');
        return done.output;
      };
      const downloads = join(dir, 'downloads');
      const read = (out: { downloadId: string | null; fileName: string } | null | undefined) =>
        readFileSync(join(downloads, `${out!.downloadId}-${out!.fileName}`), 'utf8');
      for (const report of ['positions', 'underlying', 'liquidity', 'transactions', 'history', 'unlocks'] as const) {
        const out = await run({ format: 'csv', report, group: g.id, date: DATE });
        const rows = parse(read(out), { columns: true, bom: true }) as Array<Record<string, string>>;
        if (report === 'history') expect(rows.map((r) => r['scope'])).toEqual(['group:Fund I']);
        else for (const r of rows) expect(r['wallet'], report).toBe(A);
        if (report === 'positions' || report === 'transactions') expect(rows.length, report).toBeGreaterThan(0);
      }
      const pdfOut = await run({ format: 'pdf', group: g.id, date: DATE });
      expect(pdfOut!.fileName).toBe(`folioscope-report-group-fund-i-${DATE}.pdf`);
      // A group with no members, or both a wallet and a group: refused before any file is written.
      const emptyGroup = await core.call('groups.save', { name: 'Empty', wallets: [] });
      expect(await core.dispatch('export.start', { format: 'pdf', group: emptyGroup.id, date: DATE })).toMatchObject({
        ok: false,
        error: { message: 'The group has no wallets.' },
      });
    } finally {
      await core.close();
    }
  }, 180_000);
});
