import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/main/core/app.ts';
import { startWebShell, type WebShell } from '../../src/main/web/server.ts';
import { launchChromium, shoot, watchProblems } from '../support/browser.ts';
import { tempDir } from '../support/store.ts';

/**
 * Findings (issue 27): a failed Connect showed its error about 1,750 px below the button, at
 * the end of the Settings dialog; an invalid date typed in the timeline's From/To was refused
 * with only a red border. What went wrong is said where it happened, visibly.
 */
const RENDERER = join(import.meta.dirname, '../../out/renderer');
let core: Core;
let shell: WebShell;
let browser: Browser;
let page: Page;
let problems: string[];

beforeAll(async () => {
  if (!existsSync(join(RENDERER, 'index.html'))) throw new Error('Build the renderer first: npm run build (npm test does).');
  core = await createCore({ dataDir: tempDir(), shell: 'web', baseUrl: null, scheduleEveryMs: 0 });
  shell = await startWebShell({ core, rendererDir: RENDERER });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1024, height: 640 } });
  problems = watchProblems(page);
  await page.goto(shell.url);
});

afterAll(async () => {
  await browser?.close();
  await shell?.close();
  await core?.close();
});

describe('Settings says how an action went beside it', () => {
  it('a Connect the service refuses shows its error right under the button, in view', async () => {
    await page.getByRole('button', { name: 'Settings' }).click();
    const dialog = page.getByRole('dialog', { name: 'Settings' });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    // The demo's own reference service, with a key it refuses.
    await dialog.getByLabel('Base URL').fill(core.demoService()!.url);
    await dialog.getByLabel('Access key', { exact: true }).fill('not-the-demo-key-0000');
    const connect = dialog.getByRole('button', { name: 'Connect', exact: true });
    await connect.click();
    const alert = dialog.getByRole('alert');
    await expect.poll(() => alert.isVisible(), { timeout: 15_000 }).toBe(true);
    expect(await alert.textContent()).toMatch(/key/i);
    const button = (await connect.boundingBox())!;
    const error = (await alert.boundingBox())!;
    expect(error.y - (button.y + button.height)).toBeLessThan(80);
    expect(error.y + error.height).toBeLessThanOrEqual(640);
    await shoot(page, 'settings-connect-refused-1024x640');
    await page.keyboard.press('Escape');
  });
});

describe('a date field says what is wrong with what was typed', () => {
  it('the timeline keeps the text typed, says it is not a date, under the field, and filters nothing', async () => {
    await core.call('wallets.add', { address: '0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c', chains: ['eth'] });
    await page.goto(`${shell.appUrl}#/timeline`);
    const from = page.locator('#timeline-from');
    await from.waitFor();
    await from.fill('2025-13-45');
    await from.press('Tab');
    const alert = page.locator('#timeline-from-error');
    await expect.poll(() => alert.isVisible()).toBe(true);
    expect(await alert.textContent()).toMatch(/^Not a date: type it like /);
    expect(await from.inputValue()).toBe('2025-13-45');
    const field = (await from.boundingBox())!;
    const box = (await alert.boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(field.y + field.height);
    expect(box.y - (field.y + field.height)).toBeLessThan(20);
    await shoot(page, 'timeline-date-not-a-date-1024x640');
    // Corrected: the message goes.
    await from.fill('2025-01-02');
    await from.press('Tab');
    await expect.poll(() => alert.count()).toBe(0);
    expect(problems).toEqual([]);
  });
});
