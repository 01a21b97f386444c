import { describe, expect, it } from 'vitest';
import { waitForJobs } from '../support/jobs.ts';
import { WALLET } from '../support/sim.ts';
import { poll, shootBothThemes, useWebSession } from '../support/web-session.ts';
import { demoStarter } from '../../src/sim/demo.ts';

/**
 * Issue 39, item 4: in local time (Europe/Berlin, de-DE) the timeline's header read "Time (MEZ)"
 * over July rows whose detail said "22:16 MESZ": one zone for rows of both offsets, so a summer
 * row's time was read an hour off. Now a row whose zone differs from the header's says its own.
 * What each row should say is worked out here from its own date (Intl, in Node), not from today.
 */
const ZONE = 'Europe/Berlin';
const web = useWebSession({
  viewport: { width: 1280, height: 800 },
  timezoneId: ZONE,
  core: { scheduleEveryMs: 0, demo: demoStarter({ txnsPerWallet: 600 }) },
  seed: async (core) => {
    await core.call('wallets.add', { address: WALLET, chains: ['eth'] });
    await waitForJobs(core, [await core.call('sync.transactions', { wallet: WALLET })]);
    await core.call('settings.update', { locale: 'de-DE', timeZone: 'local' });
  },
});

const abbr = (iso: string) =>
  new Intl.DateTimeFormat('de-DE', { timeZone: ZONE, timeZoneName: 'short' }).formatToParts(new Date(iso)).find((p) => p.type === 'timeZoneName')!.value;
const clock = (iso: string) => new Intl.DateTimeFormat('de-DE', { timeZone: ZONE, hour: '2-digit', minute: '2-digit' }).format(new Date(iso));

describe('local times in a zone with summer time', () => {
  it('every row is read in its own offset: a row whose zone differs from the header’s says its own', async () => {
    const rows = (await web.core.call('timeline.page', { wallet: WALLET, limit: 600 })).rows;
    const dates = new Map(rows.map((r) => [`txn-row-${r.id}`, r.date!]));
    // The data holds both offsets (half a year apart at most), whatever today is.
    expect(new Set(rows.map((r) => abbr(r.date!)))).toEqual(new Set(['MEZ', 'MESZ']));

    await web.open('#/timeline');
    await poll(() => web.page.locator('[role=row].txn').count()).toBeGreaterThan(5);
    const header = (await web.page.locator('[role=columnheader].time').textContent())!;
    const zone = /\((.+)\)$/.exec(header)?.[1];
    expect(zone, header).toBeTruthy();
    const seen = new Set<string>();
    const grid = web.page.getByRole('grid');
    for (let top = 0; seen.size < 2 && top < 600 * 36; top += 2_000) {
      await grid.evaluate((g, t) => (g.querySelector<HTMLElement>('.scroller')!.scrollTop = t), top);
      await poll(() => grid.evaluate((g) => g.querySelector<HTMLElement>('.scroller')!.scrollTop)).toBeGreaterThanOrEqual(Math.min(top, 1));
      const shown = await web.page
        .locator('[role=row].txn')
        .evaluateAll((els) => els.map((e) => ({ id: e.id, time: e.querySelector('.time')!.textContent!.trim() })));
      for (const { id, time } of shown) {
        const iso = dates.get(id);
        if (!iso) continue;
        const own = abbr(iso);
        seen.add(own);
        // Under a header of the zone's own abbreviation, the row is plain; otherwise it says its own.
        expect(time, `${id} at ${iso}`).toBe(own === zone ? clock(iso) : `${clock(iso)} ${own}`);
      }
    }
    expect(seen).toEqual(new Set(['MEZ', 'MESZ']));
    expect(web.problems).toEqual([]);
  });

  it('looked at: local times with summer time marked, 1024×640 and 1440×900, light and dark', async () => {
    for (const [w, h] of [
      [1024, 640],
      [1440, 900],
    ] as const) {
      await web.page.setViewportSize({ width: w, height: h });
      await web.open('#/timeline');
      await poll(() => web.page.locator('[role=row].txn').count()).toBeGreaterThan(5);
      await shootBothThemes(web.page, `timeline-zones-${w}x${h}`);
    }
  });
});
