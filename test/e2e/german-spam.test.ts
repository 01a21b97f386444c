import { beforeAll, describe, expect, it } from 'vitest';
import type { JobInfo } from '../../src/shared/model.ts';
import type { SpamReason } from '../../src/shared/spam.ts';
import { demoStarter } from '../../src/sim/demo.ts';
import { waitForJobs } from '../support/jobs.ts';
import { SIM_NOW, WALLET } from '../support/sim.ts';
import { poll, settled, shootBothThemes, useWebSession } from '../support/web-session.ts';

/**
 * A spam verdict's reasons on a German screen (issue 39, item 2: every text of one screen in one
 * language), in Chromium at 1024 px on the demo whose world has spam in it (as test/e2e/spam.test.ts):
 * the Overview's spam table says each token's reasons in German, each exactly as words.de.ts says
 * its code from the values the core sent; the timeline's spam badge and a spam transaction's
 * detail say theirs in German too (a received token's reason after its symbol).
 */
const DATES = { from: '2026-08-01', to: '2026-11-01' };
const web = useWebSession({
  viewport: { width: 1024, height: 768 },
  core: { demo: demoStarter({ now: () => SIM_NOW, spam: true, txnsPerWallet: 600 }), scheduleEveryMs: 0 },
  clock: SIM_NOW,
  timeout: 180_000,
  seed: async (core) => {
    await core.call('wallets.add', { address: WALLET, chains: ['eth', 'arb'], label: 'Treasury' });
    const jobs: JobInfo[] = [
      await core.call('sync.transactions', { wallet: WALLET }),
      await core.call('sync.backfill', { wallet: WALLET, from: DATES.from, to: DATES.to, every: 'month' }),
    ];
    await waitForJobs(core, jobs);
    await core.call('sync.settle', undefined);
  },
});

type Say = Record<string, (v: NonNullable<SpamReason['values']>) => string>;
/** The German words for the reasons, with the page's number and date format (loaded by path: the renderer's modules are outside this project's typecheck). */
let say: Say;
beforeAll(async () => {
  const lib = '../../src/renderer/src/lib/';
  const format = (await import(/* @vite-ignore */ `${lib}format.ts`)) as { setLocale: (l: string | null) => void };
  format.setLocale('de-DE');
  say = ((await import(/* @vite-ignore */ `${lib}words.de.ts`)) as { german: { spam: { reasons: Say } } }).german.spam.reasons;
  await web.core.call('settings.update', { locale: 'de-DE' });
});

/** How a reason in English begins (the core's sentences, docs/spam.md), after a token's symbol. */
const ENGLISH = /^(?:[^:]{1,40}: )?(?:Its |It |The |A transfer|Dust from|Received|You marked|Withdrawing|Selling)/;

describe('spam reasons in German', () => {
  it('the Overview’s spam table: each token’s reasons in German, as its code says them', async () => {
    const page = web.page;
    const view = await web.core.call('portfolio.view', { date: DATES.to });
    expect(view.spam.count).toBeGreaterThan(1);
    await web.open(`#/overview?date=${DATES.to}`);
    await poll(() => page.evaluate(() => document.documentElement.lang)).toBe('de');
    await page.getByRole('button', { name: 'Zeigen', exact: true }).click();
    const table = page.getByRole('table', { name: 'Aus den Summen gelassene Spam-Token' });
    await poll(() => table.locator('tbody tr').count()).toBe(view.spam.count);
    const codes = new Set<string>();
    for (const [i, r] of view.spam.rows.entries()) {
      const text = (await table.locator('tbody tr').nth(i).textContent())!;
      const shown = r.verdict.reasons.filter((x) => (r.verdict.spam ? x.weight >= 0 : true));
      expect(shown.length, r.position.symbol ?? '').toBeGreaterThan(0);
      for (const x of shown) {
        codes.add(x.code);
        expect(say[x.code], x.code).toBeDefined();
        expect(text, x.code).toContain(say[x.code]!(x.values!));
        expect(text, x.code).not.toContain(x.text);
      }
    }
    // More than one kind of reason seen (the world has fakes, links, no markets).
    expect(codes.size).toBeGreaterThan(1);
    await settled(page);
    await shootBothThemes(page, 'german-spam-overview-1024');
    expect(web.problems).toEqual([]);
  });

  it('the timeline: the spam badge’s title and a spam transaction’s detail say its reasons in German', async () => {
    const page = web.page;
    await web.open(`#/timeline?wallet=${WALLET}`);
    const badges = page.getByTestId('spam-badge');
    await poll(() => badges.count()).toBeGreaterThan(0);
    const titles = await badges.evaluateAll((els) => els.slice(0, 20).map((e) => e.getAttribute('title') ?? ''));
    for (const t of titles) {
      expect(t).toMatch(/^Als Spam beurteilt: in keiner Zahl\. Entschieden von /);
      for (const line of t.split('\n').slice(1)) expect(line, t).not.toMatch(ENGLISH);
    }

    await page.locator('[role=row].txn.spam').first().click();
    const drawer = page.getByRole('dialog', { name: 'Transaktionsdetail' });
    const verdict = drawer.getByTestId('txn-spam');
    await poll(() => verdict.textContent()).toContain('Als Spam beurteilt: aus jeder Zahl gelassen.');
    const reasons = await verdict.locator('ul.reasons li').allTextContents();
    expect(reasons.length).toBeGreaterThan(0);
    for (const r of reasons) expect(r).not.toMatch(ENGLISH);
    await settled(page);
    await shootBothThemes(page, 'german-spam-timeline-detail-1024');
    await page.keyboard.press('Escape');
    expect(web.problems).toEqual([]);
  });
});
