import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/main/core/app.ts';
import { startWebShell, type WebShell } from '../../src/main/web/server.ts';
import { launchChromium, shoot, watchProblems } from '../support/browser.ts';
import { tempDir } from '../support/store.ts';

/**
 * Finding (issue 27): a failed Connect showed its error about 1,750 px below the button, at
 * the end of the Settings dialog. An action's outcome is shown where it was taken.
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
    expect(problems).toEqual([]);
  });
});
