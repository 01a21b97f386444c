/**
 * Each person's display on a team server, in Chromium (docs/team.md, "Each person's display"): a
 * viewer, who may not change the books' settings, chooses a dark theme and a German format for
 * themselves in Settings; their screens follow at once and after a reload, while a preparer
 * signed in beside them still reads the books' light theme in English.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/main/core/app.ts';
import { startTeamServer, type TeamServer } from '../../src/main/team/server.ts';
import { demoStarter } from '../../src/sim/demo.ts';
import { launchChromium, signInOnPage, shoot, watchProblems } from '../support/browser.ts';
import { tempDir } from '../support/store.ts';
import { poll } from '../support/web-session.ts';

const RENDERER = join(import.meta.dirname, '../../out/renderer');
const PASSWORD = 'correct horse battery';
let core: Core;
let server: TeamServer;
let browser: Browser;

beforeAll(async () => {
  if (!existsSync(join(RENDERER, 'index.html'))) throw new Error('Build the renderer first: npx electron-vite build.');
  const keychain = { get: async () => null, set: async () => undefined, delete: async () => false };
  core = await createCore({
    dataDir: tempDir(),
    shell: 'web',
    baseUrl: null,
    demo: demoStarter(),
    scheduleEveryMs: 0,
    keychain,
    cacheKeychain: keychain,
    team: true,
  });
  await core.people.add('olive', 'owner', PASSWORD, Date.now());
  await core.people.add('vic', 'viewer', PASSWORD, Date.now());
  await core.people.add('pia', 'preparer', PASSWORD, Date.now());
  // The books' own: light, in English (an owner's settings).
  await core.request('settings.update', { theme: 'light', locale: 'en-US' });
  server = await startTeamServer({ core, rendererDir: RENDERER });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await core?.close();
});

async function signedIn(name: string): Promise<Page> {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'light' })).newPage();
  await signInOnPage(page, server.origin, name, PASSWORD);
  await poll(() => page.locator('#main').textContent()).not.toContain('Loading');
  return page;
}
const looks = (page: Page) => page.evaluate(() => ({ theme: document.documentElement.dataset.theme, lang: document.documentElement.lang }));

describe("each person's display on a team server, in Chromium", () => {
  it('a viewer chooses their own theme and format; a preparer beside them keeps the books’', async () => {
    const vic = await signedIn('vic');
    const problems = watchProblems(vic);
    expect(await looks(vic)).toEqual({ theme: 'light', lang: 'en' });
    await vic.getByRole('button', { name: 'Settings' }).click();
    const dialog = vic.getByRole('dialog', { name: 'Settings' });
    const own = dialog.getByRole('group', { name: 'Your display' });
    await own.waitFor();
    // The books' preferences are an owner's: offered to read, not to save.
    await expect(dialog.getByRole('button', { name: 'Save preferences' }).isVisible()).resolves.toBe(false);
    await poll(() => dialog.textContent()).toContain('An owner sets these for everyone on this team server.');
    await expect(own.getByLabel('Theme').inputValue()).resolves.toBe('');
    await poll(() => own.getByLabel('Theme').locator('option:checked').textContent()).toBe('The team’s: Light');
    await dialog.getByRole('group', { name: 'Your display' }).scrollIntoViewIfNeeded();
    await shoot(vic, 'team-display-own-light');

    // By keyboard: the theme, the format, then Save my display.
    await own.getByLabel('Theme').focus();
    await own.getByLabel('Theme').selectOption('dark');
    await own.getByLabel('Number and date format').fill('de-DE');
    await own.getByRole('button', { name: 'Save my display' }).focus();
    await vic.keyboard.press('Enter');
    await poll(() => looks(vic)).toEqual({ theme: 'dark', lang: 'de' });
    // Said in the language just chosen, in the dialog remade in it.
    const saved = vic.getByRole('dialog', { name: 'Einstellungen' }).getByRole('group', { name: 'Ihre Anzeige' });
    await poll(() => saved.getByRole('status').textContent()).toBe('Ihre Anzeige ist gespeichert.');
    await saved.getByRole('status').scrollIntoViewIfNeeded();
    await shoot(vic, 'team-display-own-dark-de');
    await vic.keyboard.press('Escape');

    // Kept on the server: a reload reads it back.
    await vic.reload();
    await vic.locator('#main').waitFor();
    await poll(() => looks(vic)).toEqual({ theme: 'dark', lang: 'de' });
    await shoot(vic, 'team-display-dark-de-overview');

    // The preparer beside them reads the books' display.
    const pia = await signedIn('pia');
    expect(await looks(pia)).toEqual({ theme: 'light', lang: 'en' });
    expect(problems).toEqual([]);

    // An owner has both: their own display, and the books' preferences to save for everyone.
    const olive = await signedIn('olive');
    await olive.getByRole('button', { name: 'Settings' }).click();
    const settings = olive.getByRole('dialog', { name: 'Settings' });
    await settings.getByRole('group', { name: 'Your display' }).getByRole('button', { name: 'Save my display' }).waitFor();
    await settings.getByRole('heading', { name: 'For everyone' }).scrollIntoViewIfNeeded();
    await expect(settings.getByRole('button', { name: 'Save preferences' }).isVisible()).resolves.toBe(true);
    await settings.getByLabel('The team’s theme').scrollIntoViewIfNeeded();
    await shoot(olive, 'team-display-owner');
    // The owner sets the team's theme: the owner and the preparer, who follow it, read it at once (the preparer at their next load).
    await settings.getByLabel('The team’s theme').selectOption('dark');
    await settings.getByRole('button', { name: 'Save preferences' }).click();
    await poll(() => settings.getByRole('status').textContent()).toBe('Preferences saved.');
    await poll(() => looks(olive)).toEqual({ theme: 'dark', lang: 'en' });
    await pia.reload();
    await poll(() => looks(pia)).toEqual({ theme: 'dark', lang: 'en' });
    await expect(core.request('settings.get', {})).resolves.toMatchObject({ theme: 'dark', locale: 'en-US' });

    // Back to the team's: the books' theme (dark since the owner's change) and English again.
    await vic.getByRole('button', { name: 'Einstellungen' }).click();
    const again = vic.getByRole('dialog', { name: 'Einstellungen' }).getByRole('group', { name: 'Ihre Anzeige' });
    await again.getByLabel('Darstellung').selectOption('');
    await again.getByLabel('Sprache, Zahlen- und Datumsformat').fill('');
    await again.getByRole('button', { name: 'Meine Anzeige speichern' }).click();
    await poll(() => looks(vic)).toEqual({ theme: 'dark', lang: 'en' });
  });
});
