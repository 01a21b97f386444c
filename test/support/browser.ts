import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';

/** Debian's Chromium, driven by playwright-core, with the flags these machines need. */
export const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** `scrollbars`: drawn, as a user sees them (headless Chromium hides them unless told): for a test that drags one. */
export function launchChromium(options: { scrollbars?: boolean } = {}): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, ...(options.scrollbars && { ignoreDefaultArgs: ['--hide-scrollbars'] }) });
}

export const SCREENSHOTS = join(import.meta.dirname, '../../test-results/screenshots');

/** Saves a screenshot of the page in light or dark, for people to look at. */
export async function shoot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
}

/** Collects what would show a broken page: uncaught errors, failed requests, CSP violations. */
export function watchProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  return problems;
}

/** Signs `name` in on a team server's sign-in page, as a person does (the app sends them there), until the app is shown. */
export async function signInOnPage(page: Page, origin: string, name: string, password: string): Promise<void> {
  await page.goto(`${origin}/`);
  await page.waitForURL(`${origin}/sign-in`);
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.locator('#main').waitFor();
}
