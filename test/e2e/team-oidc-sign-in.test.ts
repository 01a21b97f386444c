/**
 * Sign-in through the team's OpenID Connect provider in Chromium: the sign-in page (no script)
 * shows "Sign in with Team ID" beside the password form; clicked, the real provider
 * (oidc-provider, in this process) asks for its login and consent; back on the team server the
 * person is in the app, signed in as the person their account is linked to. The browser's own
 * SameSite rules decide here, which fetch in the shell tests does not: the attempt's Lax cookie
 * must come back with the provider's redirect, and the Strict session must reach the app after
 * it (the page after the callback moves on by itself: answered with a redirect instead, this test
 * fails, the session missing from the redirect's request, since the provider, named localhost, is
 * another site than the server on 127.0.0.1).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/main/core/app.ts';
import { discoverProvider } from '../../src/main/team/oidc.ts';
import { startTeamServer, type TeamServer } from '../../src/main/team/server.ts';
import { demoStarter } from '../../src/sim/demo.ts';
import { launchChromium, shoot, watchProblems } from '../support/browser.ts';
import { CLIENT_ID, CLIENT_SECRET, startProvider, type TestProvider } from '../support/oidc.ts';
import { tempDir } from '../support/store.ts';
import { poll } from '../support/web-session.ts';

const RENDERER = join(import.meta.dirname, '../../out/renderer');
const PASSWORD = 'correct horse battery';
let core: Core;
let server: TeamServer;
let provider: TestProvider;
let browser: Browser;

beforeAll(async () => {
  if (!existsSync(join(RENDERER, 'index.html'))) throw new Error('Build the renderer first: npx electron-vite build.');
  // Named localhost, the team server 127.0.0.1: two sites, as a real provider and server are.
  provider = await startProvider({ name: 'localhost' });
  const keychain = { get: async () => null, set: async () => undefined, delete: async () => false };
  core = await createCore({ dataDir: tempDir(), shell: 'web', baseUrl: null, demo: demoStarter(), scheduleEveryMs: 0, keychain, cacheKeychain: keychain });
  await core.people.add('olive', 'owner', PASSWORD, Date.now());
  await core.people.add('pia', 'preparer', null, Date.now(), { issuer: provider.issuer, subject: 'pia@team' });
  const oidc = await discoverProvider({ issuer: provider.issuer, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, name: 'Team ID' });
  server = await startTeamServer({ core, rendererDir: RENDERER, oidc, log: () => undefined });
  provider.register(`${server.origin}/sign-in/oidc/callback`);
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await core?.close();
  await provider?.close();
});

describe('team server in Chromium: sign-in through the provider', () => {
  it('Sign in with Team ID, the provider’s login, and back in the app as the linked person', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const problems = watchProblems(page);
    const failed: string[] = [];
    page.on('response', (r) => {
      if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
    });
    await page.goto(`${server.origin}/`);
    await page.waitForURL(`${server.origin}/sign-in`);
    const button = page.getByRole('link', { name: 'Sign in with Team ID' });
    await button.waitFor();
    await expect(page.getByLabel('Password').isVisible()).resolves.toBe(true);
    await shoot(page, 'team-oidc-sign-in');
    await page.emulateMedia({ colorScheme: 'dark' });
    await shoot(page, 'team-oidc-sign-in-dark');
    await page.emulateMedia({ colorScheme: 'light' });

    await button.click();
    // The provider's own pages (its development login: any password, the name is the subject).
    await page.waitForURL((u) => u.origin === provider.issuer);
    await page.locator('input[name="login"]').fill('pia@team');
    await page.locator('input[name="password"]').fill('what the provider checks, not us');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();

    await page.waitForURL(`${server.origin}/`);
    await page.locator('#main').waitFor();
    await poll(() => page.getByTestId('team-strip').textContent()).toContain('Signed in as pia (preparer)');
    await poll(() => page.locator('#main').textContent()).not.toContain('Loading');
    await shoot(page, 'team-oidc-signed-in');
    // The attempt's cookie is spent; the session's is Strict and HttpOnly, as a password's.
    const cookies = await context.cookies(server.origin);
    expect(cookies.filter((c) => c.name.startsWith('folio_oidc'))).toEqual([]);
    expect(cookies.find((c) => c.name.startsWith('folio_session'))).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
    // Only the provider's pages had a problem (a web font it cannot reach offline, its missing favicon); ours had none.
    expect(failed.filter((f) => !f.includes(provider.issuer))).toEqual([]);
    expect(problems.filter((p) => !/fonts\.googleapis|ERR_|status of 404/.test(p))).toEqual([]);
    await context.close();
  });
});
