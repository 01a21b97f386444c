import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/main/core/app.ts';
import { startWebShell, type WebShell } from '../../src/main/web/server.ts';
import { launchChromium, shoot, watchProblems } from '../support/browser.ts';
import { SIM_NOW } from '../support/sim.ts';
import { tempDir } from '../support/store.ts';

/**
 * In Chromium, against a demo service that writes datetimes with a +02:00 offset and sends
 * NaN for one principal_nav per response: the views say what could not be read, and
 * Settings shows the service check (issue 12, items 6 and 7).
 */
const RENDERER = join(import.meta.dirname, '../../out/renderer');
const ADDRESS = '0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c';
let core: Core;
let shell: WebShell;
let browser: Browser;
let page: Page;
let problems: string[];

beforeAll(async () => {
  if (!existsSync(join(RENDERER, 'index.html'))) throw new Error('Build the renderer first: npm run build (npm test does).');
  core = await createCore({
    dataDir: tempDir(),
    shell: 'web',
    baseUrl: null,
    demo: { txnsPerWallet: 200, now: () => SIM_NOW, conventions: { datetime: 'offset-east', badValue: 'nan', badField: 'principal_nav' } },
  });
  await core.call('wallets.add', { address: ADDRESS, chains: ['eth'], label: 'Treasury' });
  await core.call('sync.positions', { wallet: ADDRESS, date: '2026-11-20' });
  shell = await startWebShell({ core, rendererDir: RENDERER });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 820 } });
  problems = watchProblems(page);
});

afterAll(async () => {
  await browser?.close();
  await shell?.close();
  await core?.close();
});

describe('data quality and the service check, in Chromium', () => {
  it('Overview and Positions say a value could not be read', async () => {
    await page.goto(shell.url);
    await page.evaluate(() => (location.hash = '#/overview?date=2026-11-20'));
    await expect
      .poll(() => page.getByTestId('data-quality').textContent(), { timeout: 10_000 })
      .toContain('1 value the service sent for this date could not be read');
    await page.evaluate(() => (location.hash = '#/positions?date=2026-11-20'));
    await expect.poll(() => page.getByTestId('data-quality').textContent(), { timeout: 10_000 }).toContain('principal_nav = "NaN"');
    await shoot(page, 'data-quality-positions');
  });

  it('a comparison of two dates says which changes are unknown, never a loss of the whole value', async () => {
    await core.call('sync.positions', { wallet: ADDRESS, date: '2026-11-10' });
    await page.evaluate(() => (location.hash = '#/positions?date=2026-11-20&compare=2026-11-10'));
    const note = page.getByTestId('diff-unknown');
    await expect.poll(() => note.textContent(), { timeout: 10_000 }).toMatch(/unknown .* left out of the totals/);
    await note.scrollIntoViewIfNeeded();
    await shoot(page, 'data-quality-compare');
  });

  it('Settings shows the service check; Check now runs it', async () => {
    await page.getByRole('button', { name: 'Settings' }).click();
    const panel = page.getByTestId('service-check');
    await expect.poll(() => panel.textContent()).toContain('Not checked yet');
    await panel.getByRole('button', { name: 'Check now' }).click();
    await expect.poll(() => panel.textContent(), { timeout: 20_000 }).toContain('Datetimes (snapshots): ISO 8601 with a zone offset');
    const text = (await panel.textContent())!;
    expect(text).toContain('Latest snapshot (no date asked): for 2026-11-20');
    expect(text).toMatch(/Numbers: numbers; 2 unreadable/);
    expect(text).toContain('Page numbering');
    await shoot(page, 'service-check');
    expect(problems).toEqual([]);
  });
});
