import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { createCore } from '../../src/main/core/app.ts';
import { unlocksIcs } from '../../src/main/core/reports/ics.ts';
import { healthHistory } from '../../src/main/core/analytics/store/health.ts';
import { unlockLadder } from '../../src/main/core/portfolio/view.ts';
import { headroom } from '../../src/shared/headroom.ts';
import { SIM_NOW } from '../support/sim.ts';
import { cacheOf, tempDir } from '../support/store.ts';
import { waitForJobs } from '../support/jobs.ts';
import { demoStarter } from '../../src/sim/demo.ts';

const A = '0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c';
const B = '0x00000000219ab540356cbb839cbe05303d7705fa';

describe('wallet groups, risk and unlocks through the core (demo service)', () => {
  it('scopes reconciliation, risk, exports and the PDF to a group; refuses bad groups and changes nothing', async () => {
    const dir = tempDir();
    const core = await createCore({ dataDir: dir, shell: 'cli', baseUrl: null, demo: demoStarter({ txnsPerWallet: 800, now: () => SIM_NOW }) });
    try {
      await core.call('wallets.add', { address: A, chains: ['eth'], label: 'Ops' });
      await core.call('wallets.add', { address: B, chains: ['eth'], label: 'Cold' });
      const jobs = [];
      for (const w of [A, B])
        jobs.push(
          await core.call('sync.backfill', { wallet: w, from: '2025-07-31', to: '2025-12-31', every: 'month' }),
          await core.call('sync.transactions', { wallet: w }),
        );
      await waitForJobs(core, jobs);
      const db = await cacheOf(core);
      const g = await core.call('groups.save', { name: 'Fund I', wallets: [A] });
      expect(await core.call('groups.list', undefined)).toEqual([{ id: g.id, name: 'Fund I', wallets: [A], version: expect.any(Number) }]);
      const bad = await core.dispatch('groups.save', { name: 'fund i', wallets: [B] });
      expect(bad).toMatchObject({ ok: false, error: { kind: 'validation', message: 'A group named "fund i" exists already.' } });
      expect(await core.dispatch('groups.save', { name: 'X', wallets: ['0x' + '7'.repeat(40)] })).toMatchObject({ ok: false });
      expect((await core.call('groups.list', undefined)).length).toBe(1);

      const rec = await core.call('reconcile.get', { group: g.id, from: '2025-07-31', to: '2025-12-31' });
      expect(rec.problems).toEqual([]);
      expect(new Set(rec.rows.map((r) => r.wallet))).toEqual(new Set([A]));
      const risk = await core.call('risk.lending', { group: g.id, date: '2025-12-31' });
      expect(risk.positions.every((p) => p.wallet === A)).toBe(true);
      expect(await core.dispatch('risk.lending', { group: 999, date: '2025-12-31' })).toMatchObject({
        ok: false,
        error: { message: 'There is no wallet group 999.' },
      });

      // The PDF for the group names its member and not the other wallet.
      const pdf = join(dir, 'group.pdf');
      const { exportPdf } = await import('../../src/main/core/reports/pdf.ts');
      const { writeAtomically } = await import('../../src/main/core/reports/files.ts');
      await writeAtomically(pdf, (out) => exportPdf(db, { date: '2025-12-31', wallets: [A], from: '2025-07-31', to: '2025-12-31' }, out));
      const text = execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' });
      expect(text).toContain(A);
      expect(text).not.toContain(B);
      expect(text).toContain('Roll-forward reconciliation, 2025-07-31 to 2025-12-31');

      // Headroom figures come from the ratio and threshold the service reported.
      for (const p of risk.positions) expect(headroom(p.collateralDebtRatio, p.liqThreshold)!.health).toBeCloseTo(p.collateralDebtRatio * p.liqThreshold, 12);
      const first = (await core.call('risk.lending', { date: '2025-12-31' })).positions[0]!;
      const hist = healthHistory(db, { wallet: first.wallet, chain: first.chain, cid: first.cid! });
      expect(hist.points.map((p) => p.date)).toEqual([...hist.points.map((p) => p.date)].sort());
      expect(hist.points.at(-1)!.collateralDebtRatio).toBe(first.collateralDebtRatio);

      // Unlock ladder: soonest first, and the iCalendar file has one event per unlock.
      const ladder = unlockLadder(db, '2025-12-31');
      expect(ladder.unlocks.length).toBeGreaterThan(0); // the second wallet holds a vote-escrow lock
      expect(ladder.unlocks.map((u) => u.unlockTime)).toEqual([...ladder.unlocks.map((u) => u.unlockTime)].sort());
      const { text: ics, events } = unlocksIcs(db, { date: '2025-12-31' });
      expect(events).toBe(ladder.unlocks.length);
      expect(ics.startsWith('BEGIN:VCALENDAR\r\nVERSION:2.0\r\n')).toBe(true);
      expect(ics.match(/BEGIN:VEVENT/g)?.length ?? 0).toBe(events);
      for (const line of ics.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
      for (const u of ladder.unlocks) expect(ics).toContain(`DTSTART;VALUE=DATE:${u.unlockTime.slice(0, 10).replace(/-/g, '')}`);

      // Removing a wallet drops it from its groups.
      await core.call('wallets.remove', { address: A });
      expect((await core.call('groups.list', undefined))[0]!.wallets).toEqual([]);
    } finally {
      await core.close();
    }
  }, 120_000);
});
