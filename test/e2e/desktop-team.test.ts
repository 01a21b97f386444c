/**
 * The desktop on a team server in Chromium (issue 37 item 7): the loopback web shell with the
 * team client in front of its core, as `folioscope serve` and the app start it. Settings → Team:
 * a preparer signs in with her name and password and sees who, which role, which server and the
 * copy's time; the app shows the server's books. The server stopped, a banner across the app says
 * it is a read-only copy from its time and what it cannot do; an edit is refused saying so.
 * Screens looked at, light and dark.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/main/core/app.ts';
import type { Keychain } from '../../src/main/core/index.ts';
import { startTeamServer, type TeamServer } from '../../src/main/team/server.ts';
import { startTeamClient, type TeamClient } from '../../src/main/team-client/client.ts';
import { startWebShell, type WebShell } from '../../src/main/web/server.ts';
import { demoStarter } from '../../src/sim/demo.ts';
import { launchChromium, shoot, watchProblems } from '../support/browser.ts';
import { tempDir } from '../support/store.ts';
import { poll, settled } from '../support/web-session.ts';
import { WALLET } from '../support/sim.ts';

const RENDERER = join(import.meta.dirname, '../../out/renderer');
const PASSWORD = 'correct horse battery';
const none: Keychain = { get: async () => null, set: async () => undefined, delete: async () => false };
// The desktop's keychain for the token, in memory (the real one is the shells' test's: desktop-on-team-server).
const tokens = new Map<string, string>();
const keychain: Keychain = { get: async (a) => tokens.get(a) ?? null, set: async (a, s) => void tokens.set(a, s), delete: async (a) => tokens.delete(a) };
let serverCore: Core;
let server: TeamServer | null;
let local: Core;
let client: TeamClient;
let shell: WebShell;
let browser: Browser;
let page: Page;
let problems: string[];
const desktopDir = tempDir();

beforeAll(async () => {
  if (!existsSync(join(RENDERER, 'index.html'))) throw new Error('Build the renderer first: npx electron-vite build.');
  serverCore = await createCore({
    dataDir: tempDir(),
    shell: 'web',
    team: true,
    baseUrl: null,
    demo: demoStarter(),
    scheduleEveryMs: 0,
    keychain: none,
    cacheKeychain: none,
  });
  await serverCore.people.add('olive', 'owner', PASSWORD, Date.now());
  await serverCore.people.add('pia', 'preparer', PASSWORD, Date.now());
  await serverCore.call('wallets.add', { address: WALLET, chains: ['eth'], label: 'Team treasury' });
  server = await startTeamServer({ core: serverCore, rendererDir: RENDERER });
  local = await createCore({ dataDir: desktopDir, shell: 'web', baseUrl: null, demo: demoStarter(), scheduleEveryMs: 0, keychain: none, cacheKeychain: none });
  client = await startTeamClient({
    dataDir: desktopDir,
    local,
    keychain,
    device: 'e2e',
    retryEveryMs: 0,
    openReplica: (replica) => createCore({ dataDir: desktopDir, shell: 'web', keychain: none, cacheKeychain: none, scheduleEveryMs: 0, replica }),
  });
  shell = await startWebShell({ core: client.core, rendererDir: RENDERER });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  problems = watchProblems(page);
});
afterAll(async () => {
  await browser?.close();
  await shell?.close();
  await client?.close();
  await local?.close();
  await server?.close();
  await serverCore?.close();
});

async function settings() {
  if (!(await page.getByRole('dialog', { name: 'Settings' }).isVisible())) await page.getByRole('button', { name: 'Settings' }).click();
  return page.getByRole('dialog', { name: 'Settings' });
}

async function themes(name: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await poll(() => page.evaluate(() => document.documentElement.dataset['theme'])).toBe(scheme);
    await settled(page);
    await shoot(page, `${name}-${scheme}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

describe('Settings → Team', () => {
  it('signs in to the team server with a name and password, and shows who, where and the copy', async () => {
    await page.goto(shell.url);
    await page.locator('#main').waitFor();
    const dialog = await settings();
    const team = dialog.getByTestId('team-section');
    await team.getByLabel('Server address').fill(server!.origin);
    await team.getByLabel('Name').fill('pia');
    await team.getByLabel('Password').fill('not the password');
    await team.getByRole('button', { name: 'Sign in' }).click();
    await poll(() => team.getByRole('alert').textContent()).toContain('That name and password do not match.');
    await team.getByLabel('Password').fill(PASSWORD);
    await team.getByRole('button', { name: 'Sign in' }).click();
    const host = server!.origin.replace('http://', '');
    await poll(() => team.textContent()).toContain(`Signed in to ${host} as pia (preparer).`);
    await poll(() => team.textContent()).toContain('Copy kept for offline reading:');
    expect(await team.getByLabel('Password').count()).toBe(0);
    await team.scrollIntoViewIfNeeded();
    await themes('desktop-team-signed-in');
    // The app shows the server's books.
    await page.keyboard.press('Escape');
    await poll(() => page.locator('.shell').textContent()).toContain('Team treasury');
    expect(client.status()).toMatchObject({ state: 'live', person: 'pia' });
  });

  it('shows the read-only copy with its time when the server stops, and says what it cannot do', async () => {
    await server!.close();
    server = null;
    // The server's event stream ended: the desktop turns to its copy and tells the page.
    await poll(() => client.status().state).toBe('replica');
    const banner = page.getByTestId('replica-banner');
    await poll(() => banner.textContent()).toContain('Read-only copy of');
    expect(await banner.textContent()).toContain('edits, syncs and closes are made on the server');
    await poll(() => page.locator('.shell').textContent()).toContain('Team treasury');
    const refused = await client.core.dispatch('wallets.update', { address: WALLET, label: 'Mine' });
    expect(refused.ok ? 'ok' : refused.error.message).toMatch(/^This is a read-only copy of 127\.0\.0\.1:\d+ from /);
    await themes('desktop-team-replica');
    const dialog = await settings();
    await poll(() => dialog.getByTestId('team-section').textContent()).toContain('showing its copy from');
    await dialog.getByTestId('team-section').scrollIntoViewIfNeeded();
    await themes('desktop-team-replica-settings');
    expect(problems.filter((p) => !/Failed to load resource|ERR_/.test(p))).toEqual([]);
  });
});
