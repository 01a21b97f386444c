import { describe, expect, it } from 'vitest';
import { shoot } from '../support/browser.ts';
import { SIM_NOW } from '../support/sim.ts';
import { useWebSession } from '../support/web-session.ts';
import { demoStarter } from '../../src/sim/demo.ts';

/**
 * In Chromium, against a demo service that writes datetimes with a +02:00 offset and sends
 * NaN for one principal_nav per response: the views say what could not be read, and
 * Settings shows the service check (issue 12, items 6 and 7).
 */
const ADDRESS = '0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c';
const web = useWebSession({
  viewport: { width: 1280, height: 820 },
  core: { demo: demoStarter({ txnsPerWallet: 200, now: () => SIM_NOW, conventions: { datetime: 'offset-east', badValue: 'nan', badField: 'principal_nav' } }) },
  seed: async (core) => {
    await core.call('wallets.add', { address: ADDRESS, chains: ['eth'], label: 'Treasury' });
    await core.call('sync.positions', { wallet: ADDRESS, date: '2026-11-20' });
  },
});

describe('data quality and the service check, in Chromium', () => {
  it('Overview and Positions say a value could not be read', async () => {
    await web.page.goto(web.shell.url);
    await web.page.evaluate(() => (location.hash = '#/overview?date=2026-11-20'));
    await expect
      .poll(() => web.page.getByTestId('data-quality').textContent(), { timeout: 10_000 })
      .toContain('1 value the service sent for this date could not be read');
    await web.page.evaluate(() => (location.hash = '#/positions?date=2026-11-20'));
    await expect.poll(() => web.page.getByTestId('data-quality').textContent(), { timeout: 10_000 }).toContain('principal_nav = "NaN"');
    await shoot(web.page, 'data-quality-positions');
  });

  it('a comparison of two dates says which changes are unknown, never a loss of the whole value', async () => {
    await web.core.call('sync.positions', { wallet: ADDRESS, date: '2026-11-10' });
    await web.page.evaluate(() => (location.hash = '#/positions?date=2026-11-20&compare=2026-11-10'));
    const note = web.page.getByTestId('diff-unknown');
    await expect.poll(() => note.textContent(), { timeout: 10_000 }).toMatch(/unknown .* left out of the totals/);
    await note.scrollIntoViewIfNeeded();
    await shoot(web.page, 'data-quality-compare');
  });

  it('Settings shows the service check; Check now runs it', async () => {
    await web.page.getByRole('button', { name: 'Settings' }).click();
    const panel = web.page.getByTestId('service-check');
    await expect.poll(() => panel.textContent()).toContain('Not checked yet');
    await panel.getByRole('button', { name: 'Check now' }).click();
    await expect.poll(() => panel.textContent(), { timeout: 20_000 }).toContain('Datetimes (snapshots): ISO 8601 with a zone offset');
    const text = (await panel.textContent())!;
    expect(text).toContain('Latest snapshot (no date asked): for 2026-11-20');
    expect(text).toMatch(/Numbers: numbers; 2 unreadable/);
    expect(text).toContain('Page numbering');
    await shoot(web.page, 'service-check');
    expect(web.problems).toEqual([]);
  });
});
