/**
 * The team server in Chromium: a preparer signs in on the sign-in page (no script), sees the app
 * (every call of it a POST that must carry the CSRF header), sees who they are signed in as, and
 * signs out back to the sign-in page.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/main/core/app.ts';
import { startTeamServer, type TeamServer } from '../../src/main/team/server.ts';
import { demoStarter } from '../../src/sim/demo.ts';
import { launchChromium, shoot, watchProblems } from '../support/browser.ts';
import { tempDir } from '../support/store.ts';
import { poll } from '../support/web-session.ts';

const RENDERER = join(import.meta.dirname, '../../out/renderer');
const PASSWORD = 'correct horse battery';
let core: Core;
let server: TeamServer;
let browser: Browser;

beforeAll(async () => {
  if (!existsSync(join(RENDERER, 'index.html'))) throw new Error('Build the renderer first: npx electron-vite build.');
  // No system keychain: the demo needs no key, and the people are in the cache.
  const keychain = { get: async () => null, set: async () => undefined, delete: async () => false };
  core = await createCore({ dataDir: tempDir(), shell: 'web', baseUrl: null, demo: demoStarter(), scheduleEveryMs: 0, keychain, cacheKeychain: keychain });
  await core.people.add('olive', 'owner', PASSWORD, Date.now());
  await core.people.add('pia', 'preparer', PASSWORD, Date.now());
  server = await startTeamServer({ core, rendererDir: RENDERER });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await core?.close();
});

describe('team server in Chromium', () => {
  it('a preparer signs in, sees the app and who they are, and signs out', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const problems = watchProblems(page);
    await page.goto(`${server.origin}/`);
    await page.waitForURL(`${server.origin}/sign-in`);
    await shoot(page, 'team-sign-in');
    await page.getByLabel('Name').fill('pia');
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForLoadState();
    await poll(() => page.locator('.problem').textContent()).toContain('That name and password do not match.');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('#main').waitFor();
    await poll(() => page.getByTestId('team-strip').textContent()).toContain('Signed in as pia (preparer)');
    // The app's own calls went through (each a POST with the CSRF header): the demo's wallets are listed.
    await poll(() => page.locator('#main').textContent()).not.toContain('Loading');
    await shoot(page, 'team-signed-in');
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.waitForURL(`${server.origin}/sign-in`);
    await page.getByLabel('Name').waitFor();
    // The cookie is cleared, and the server no longer knows the session.
    expect((await page.context().cookies()).filter((c) => c.name.startsWith('folio_session'))).toEqual([]);
    expect(core.people.list().find((p) => p.name === 'pia')).toMatchObject({ role: 'preparer', disabled: false });
    expect(problems.filter((p) => !p.includes('401'))).toEqual([]);
  });
});
