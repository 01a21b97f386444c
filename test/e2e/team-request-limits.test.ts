/**
 * Each person's allowance on a team server (team/request-limits.ts), in Chromium: a person's walk
 * through every view, as they first open the app, stays well inside the default allowance (no
 * request refused); and with an allowance far tighter than any screen needs, the same walk still
 * shows every view, its refused requests asked again after the Retry-After (shared/slow-down.ts),
 * with no error shown.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../src/main/core/app.ts';
import { DEFAULT_REQUEST_LIMITS, type RequestLimits } from '../../src/main/team/request-limits.ts';
import { startTeamServer, type TeamServer } from '../../src/main/team/server.ts';
import { demoStarter } from '../../src/sim/demo.ts';
import { launchChromium, signInOnPage, watchProblems } from '../support/browser.ts';
import { tempDir } from '../support/store.ts';
import { COLD, poll, recordAsks, TREASURY } from '../support/web-session.ts';

const RENDERER = join(import.meta.dirname, '../../out/renderer');
const PASSWORD = 'correct horse battery';
/** Each view, and the question its figures come from: answered (200) before the walk goes on. */
const TABS: Array<[string, string]> = [
  ['Overview', 'portfolio.summary'],
  ['Positions', 'portfolio.rows'],
  ['Timeline', 'timeline.page'],
  ['Reconcile', 'reconcile.get'],
  ['Risk', 'risk.unlocks'],
  ['Monthly pack', 'pack.get'],
  ['Address book', 'counterparties.list'],
];
let browser: Browser;
const open: Array<{ core: Core; server: TeamServer }> = [];

beforeAll(async () => {
  if (!existsSync(join(RENDERER, 'index.html'))) throw new Error('Build the renderer first: npx electron-vite build.');
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  for (const { core, server } of open) {
    await server.close();
    await core.close();
  }
});

async function teamServer(requestLimits?: RequestLimits): Promise<TeamServer> {
  const keychain = { get: async () => null, set: async () => undefined, delete: async () => false };
  const core = await createCore({
    dataDir: tempDir(),
    shell: 'web',
    baseUrl: null,
    demo: demoStarter(),
    scheduleEveryMs: 0,
    keychain,
    cacheKeychain: keychain,
    team: true,
  });
  await core.people.add('vic', 'viewer', PASSWORD, Date.now());
  await core.request('wallets.add', { address: TREASURY, chains: ['eth', 'arb'], label: 'Treasury' });
  await core.request('wallets.add', { address: COLD, chains: ['eth'], label: 'Cold' });
  const server = await startTeamServer({ core, rendererDir: RENDERER, ...(requestLimits && { requestLimits }) });
  open.push({ core, server });
  return server;
}

/** Signs in and goes through every view and Settings, as a person first looking round: what was asked, and the statuses answered. */
async function walk(server: TeamServer): Promise<{ asks: number; statuses: number[]; problems: string[]; page: Page }> {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  const problems = watchProblems(page);
  const asks = recordAsks(page);
  const statuses: number[] = [];
  const answered: string[] = [];
  page.on('response', (r) => {
    const m = /\/api\/([\w.]+)$/.exec(new URL(r.url()).pathname);
    if (!m || r.request().method() !== 'POST') return;
    statuses.push(r.status());
    if (r.status() === 200) answered.push(m[1]!);
  });
  const answeredSince = (op: string, from: number) => answered.slice(from).includes(op);
  await signInOnPage(page, server.origin, 'vic', PASSWORD);
  for (const [tab, op] of TABS) {
    const from = tab === 'Overview' ? 0 : answered.length;
    await page.getByRole('tab', { name: tab, exact: true }).click();
    await poll(() => page.getByRole('tab', { name: tab, exact: true }).getAttribute('aria-selected')).toBe('true');
    // The view has its answers: its figures' question answered, and nothing loading any more.
    await poll(() => answeredSince(op, from), 60_000).toBe(true);
    await poll(() => page.locator('#view [aria-busy="true"], #view .skeleton').count(), 60_000).toBe(0);
  }
  const from = answered.length;
  await page.getByRole('button', { name: 'Settings' }).click();
  await poll(() => answeredSince('audit.list', from), 60_000).toBe(true);
  await page.getByRole('dialog', { name: 'Settings' }).getByRole('group', { name: 'Your display' }).waitFor();
  await page.keyboard.press('Escape');
  return { asks: asks.length, statuses, problems, page };
}

describe("a person's allowance on a team server, in Chromium", () => {
  it('a first walk through every view asks well inside the default allowance: nothing is refused', async () => {
    const w = await walk(await teamServer());
    expect(w.statuses).not.toContain(429);
    // Headroom: the whole walk asks for under half of what a person may ask in one go.
    expect(w.asks).toBeLessThan(DEFAULT_REQUEST_LIMITS.burst / 2);
    expect(w.problems).toEqual([]);
  }, 120_000);

  it('with an allowance far tighter than the screens need, every view still arrives, its refused requests asked again', async () => {
    const w = await walk(await teamServer({ burst: 6, perSecond: 8, concurrent: 3 }));
    expect(w.statuses).toContain(429);
    expect(w.statuses.filter((s) => s !== 429 && s !== 200)).toEqual([]);
    // What a person sees: no refusal said anywhere (the browser's own line for a 429 aside).
    expect(await w.page.locator('[role="alert"]').allTextContents()).toEqual([]);
    expect(await w.page.locator('#main').textContent()).not.toMatch(/try again in|asked the team server for more/);
    expect(w.problems.filter((p) => !/status of 429/.test(p))).toEqual([]);
  }, 120_000);
});
