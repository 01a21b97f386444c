import { describe, expect, it } from 'vitest';
import { shoot } from '../support/browser.ts';
import { waitForJobs } from '../support/jobs.ts';
import { SIM_NOW, WALLET, WALLET_2 } from '../support/sim.ts';
import { poll, useWebSession } from '../support/web-session.ts';
import { demoStarter } from '../../src/sim/demo.ts';

/**
 * One notation and honest charts (issue 27), in Chromium against the demo service, with the
 * locale set to de-DE: Risk's ratios and percentages, the allocation legends, the NAV chart's
 * ticks, a chain's colour in two scopes, and the alerts inbox all read German, beside German
 * currency. Screenshots of Risk and Overview at 1440×900 and 1024×640, light and dark.
 */
const DATE = new Date(SIM_NOW).toISOString().slice(0, 10);
// Four weeks before, so the weekly dates end on DATE.
const MONTH_BEFORE = new Date(SIM_NOW - 28 * 86_400_000).toISOString().slice(0, 10);
/** What Intl puts between a number and "%" or "$" in de-DE. */
const plain = (s: string | null) => (s ?? '').replace(/[\u00a0\u202f]/g, ' ').trim();
const web = useWebSession({
  viewport: { width: 1440, height: 900 },
  core: { scheduleEveryMs: 0, demo: demoStarter({ txnsPerWallet: 50, now: () => SIM_NOW }) },
  seed: async (core) => {
    await core.call('wallets.add', { address: WALLET, chains: ['eth', 'arb'], label: 'Treasury' });
    await core.call('wallets.add', { address: WALLET_2, chains: ['eth'], label: 'Cold storage' });
    await waitForJobs(core, [
      await core.call('sync.backfill', { wallet: WALLET, from: MONTH_BEFORE, to: DATE, every: 'week' }),
      await core.call('sync.backfill', { wallet: WALLET_2, from: MONTH_BEFORE, to: DATE, every: 'week' }),
    ]);
    await core.call('settings.update', { locale: 'de-DE' });
  },
  timeout: 180_000,
});

async function theme(t: 'light' | 'dark'): Promise<void> {
  await web.page.emulateMedia({ colorScheme: t });
  await poll(() => web.page.evaluate(() => document.documentElement.dataset['theme'])).toBe(t);
}

describe('one notation in de-DE', () => {
  it('Risk: ratios, thresholds, health and percentages in German beside German currency', async () => {
    await web.open(`#/risk?date=${DATE}`);
    const row = web.page.locator('.group tbody tr').first();
    await poll(() => row.count()).toBe(1);
    const cells = (await row.locator('td').allTextContents()).map(plain);
    // Wallet, chain, position, ratio, threshold, health, fall, debt rise, debt, health after.
    expect(cells[3]).toMatch(/^\d+,\d{4}$/);
    expect(cells[4]).toMatch(/^0,\d{1,4}$/);
    expect(cells[5]).toMatch(/^\d+,\d{3}$/);
    expect(cells[6]).toMatch(/^(\d+,\d %|<0,1 %|>99,9 %|crossed|cannot alone)$/);
    expect(cells[7]).toMatch(/^\d+,\d %$/);
    expect(cells[8]).toMatch(/^[\d.]+,\d\d \$$/);
    expect(cells[9]).toMatch(/^\d+,\d{3}( ✕)?$/);
    // The stress control and its summary say "25 %", as German writes it.
    expect(plain(await web.page.locator('label[for=stress] strong').textContent())).toBe('25 %');
    expect(plain(await web.page.getByTestId('stress-summary').first().textContent())).toMatch(/^Ein Rückgang von \S+ um 25 % erreicht/);
    const table = plain(await web.page.locator('section[aria-labelledby=headroom-title]').innerText());
    // No English decimal such as "2.297" (German groups thousands with dots: "13.421,15 $").
    expect(table).not.toMatch(/\b\d+\.\d+\b(?![.,]\d)/);
    // The health chart's axis and legend.
    await row.click();
    const health = web.page.locator('section[aria-labelledby=health-title] canvas');
    await poll(async () => (await health.getAttribute('data-ticks-y')) ?? '').toMatch(/,/);
    const ticks = (await health.getAttribute('data-ticks-y'))!.split('|');
    expect(new Set(ticks).size).toBe(ticks.length);
    for (const t of ticks) expect(t).toMatch(/^\d+(,\d+)?$/);
    expect(plain(await web.page.getByTestId('near-misses').textContent())).toMatch(/Health-Faktor (unter|blieb über) 1,15/);
  });

  it('Overview: the legends say "44,9 %" and never "0 %" for a slice; the NAV axis repeats no label', async () => {
    await web.open(`#/overview?date=${DATE}&range=30d`);
    const legends = web.page.locator('.alloc li .num');
    await poll(() => legends.count()).toBeGreaterThan(3);
    for (const text of (await legends.allTextContents()).map(plain)) {
      expect(text).toMatch(/^(\d+,\d %|<0,1 %|>99,9 %)$/);
      expect(text).not.toMatch(/^0(,0)? %$/);
    }
    const main = web.page.locator('.charts .main canvas');
    await poll(async () => plain(await main.getAttribute('data-ticks-y'))).toMatch(/Mio\. \$/);
    const ticks = (await main.getAttribute('data-ticks-y'))!.split('|').map(plain);
    expect(ticks.length).toBeGreaterThan(2);
    expect(new Set(ticks).size).toBe(ticks.length);
    for (const t of ticks) expect(t).toMatch(/^\d+(,\d+)? Mio\. \$$/);
    // The dates under the chart are German too.
    const dates = (await web.page.locator('.charts .rewards canvas').getAttribute('data-ticks-x'))!.split('|');
    for (const d of dates) expect(d).toMatch(/^\d+\. \S+ \d{4}$/);
  });

  it('a chain keeps its colour in every scope: from its id, not from its rank', async () => {
    const swatches = async () => {
      const items = web.page.locator('figure', { hasText: 'Chain' }).locator('li');
      await poll(() => items.count()).toBeGreaterThan(0);
      const out: Record<string, string> = {};
      for (const li of await items.all())
        out[plain(await li.locator('.name').textContent())] = await li.locator('.swatch').evaluate((e) => getComputedStyle(e).backgroundColor);
      return out;
    };
    const palette = await web.page.evaluate(() => {
      const probe = document.createElement('span');
      document.body.append(probe);
      const colour = (v: string) => ((probe.style.color = `var(${v})`), getComputedStyle(probe).color);
      const out = { eth: colour('--chart-1'), arb: colour('--chart-6') };
      probe.remove();
      return out;
    });
    await web.open(`#/overview?date=${DATE}`);
    const all = await swatches();
    // The legend names each chain as the screens do (issue 39: one name per chain).
    expect(all).toEqual({ Ethereum: palette.eth, 'Arbitrum One': palette.arb });
    await web.open(`#/overview?date=${DATE}&wallet=${WALLET}`);
    await poll(() => web.page.locator('.kpi').first().textContent()).toMatch(/\$/);
    expect(await swatches()).toEqual(all);
  });

  it('the alerts inbox writes the figures in German; the core keeps plain English numbers for the CLI', async () => {
    await web.core.call('alerts.saveRule', { scope: { kind: 'all' }, condition: { kind: 'health', below: 50 } });
    const [stored] = (await web.core.call('alerts.inbox', {})).alerts;
    expect(stored!.title).toMatch(/^Health \d+\.\d+ below 50: /);
    await web.open(`#/overview?date=${DATE}`);
    // The screen speaks German (issue 39 item 2): the button, the dialog and its inbox too.
    const button = web.page.getByRole('button', { name: /^Warnungen:/ });
    await poll(() => button.getAttribute('aria-label')).toMatch(/^Warnungen: \d+ anzusehen$/);
    await button.click();
    const item = web.page.getByRole('dialog', { name: 'Warnungen' }).getByRole('region', { name: 'Eingang' }).getByRole('listitem').first();
    await poll(() => item.count()).toBe(1);
    const text = plain((await item.textContent())!.replace(/\s+/g, ' '));
    expect(text).toMatch(
      /Health-Faktor \d+,\d{3,} unter 50: .+ von (Treasury|Cold storage) \(0x[0-9a-f]+\) auf (Ethereum|Arbitrum One), \d+\. \S+ \d{4}: Sicherheiten\/Schulden \d+,\d+ × Liquidationsschwelle 0,\d+ = Health-Faktor \d+,\d{3,}/,
    );
    expect(text).not.toMatch(/\b\d+\.\d+\b(?![.,]\d)/);
    await shoot(web.page, 'notation-alerts-de-1440');
    await web.page.keyboard.press('Escape');
  });
});

describe('screenshots in de-DE', () => {
  for (const [width, height] of [
    [1440, 900],
    [1024, 640],
  ] as const) {
    for (const t of ['light', 'dark'] as const) {
      it(`Risk and Overview at ${width}×${height}, ${t}`, async () => {
        await web.page.setViewportSize({ width, height });
        await theme(t);
        await web.open(`#/risk?date=${DATE}`);
        await poll(() => web.page.locator('.group tbody tr').count()).toBeGreaterThan(0);
        await web.page.locator('.group tbody tr').first().click();
        await poll(async () => (await web.page.locator('section[aria-labelledby=health-title] canvas').getAttribute('data-ticks-y')) ?? '').not.toBe('');
        await shoot(web.page, `notation-risk-${width}-${t}`);
        await web.page.locator('section[aria-labelledby=health-title]').scrollIntoViewIfNeeded();
        await shoot(web.page, `notation-risk-health-${width}-${t}`);
        await web.open(`#/overview?date=${DATE}&range=30d`);
        await poll(async () => (await web.page.locator('.charts .main canvas').getAttribute('data-ticks-y')) ?? '').toMatch(/Mio/);
        await shoot(web.page, `notation-overview-${width}-${t}`);
        await web.page.locator('.alloc').scrollIntoViewIfNeeded();
        await shoot(web.page, `notation-overview-allocation-${width}-${t}`);
      });
    }
  }

  it('had no page errors', () => {
    expect(web.problems).toEqual([]);
  });
});
