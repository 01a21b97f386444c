import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { type Core, type CoreOptions, createCore } from '../../src/main/core/app.ts';
import { startWebShell, type WebShell } from '../../src/main/web/server.ts';
import { launchChromium, shoot, watchProblems } from './browser.ts';
import { tempDir } from './store.ts';
import { demoStarter } from '../../src/sim/demo.ts';
import { waitForJobs } from './jobs.ts';
import { SIM_NOW } from './sim.ts';

/**
 * One web session for an end-to-end test file (test/e2e): a core in a fresh data folder (demo
 * mode unless told otherwise), the web shell serving the built renderer (out/renderer: run
 * `npx electron-vite build` first), Debian's Chromium through playwright-core and one page.
 * Made in a beforeAll, closed in an afterAll; the file's tests share it, in order, as one
 * person's session would.
 *
 *   const web = useWebSession({
 *     viewport: { width: 1280, height: 800 },
 *     core: { demo: demoStarter({ txnsPerWallet: 200, now: () => SIM_NOW }) }, // createCore's options (not dataDir, shell)
 *     prepare: (dataDir) => fillCache(join(dataDir, 'demo.sqlite')),  // before the core opens the folder
 *     seed: async (core) => { await core.call('wallets.add', { address, chains: ['eth'] }); },
 *     open: true,                                        // load the app before the first test
 *     clock: SIM_NOW,                                    // the renderer's Date (./sim.ts), as the simulator's `now`
 *   });
 *   it('…', async () => {
 *     await web.open('#/timeline');                      // the tokened address, then the app rendered
 *     await poll(() => web.page.getByRole('grid').isVisible()).toBe(true);
 *     expect(web.problems).toEqual([]);                  // page errors and console errors so far
 *   });
 *
 * The web shell listens on a port the system picks (0), so files run side by side never share
 * one. Jobs: waitForJobs (./jobs.ts). The session's fields throw if read before its beforeAll
 * has run (at collection time, in a describe body): read them in tests and hooks.
 */
export interface WebSessionOptions {
  /** The page's size. */
  viewport: { width: number; height: number };
  /**
   * createCore's options but the data folder and the shell; baseUrl is null (demo mode) unless
   * given. A function is called in the set-up, for what is known only then (a simulator's URL).
   */
  core?: SessionCoreOptions | (() => SessionCoreOptions);
  /**
   * Runs on the data folder before the core opens it: a cache written straight through the
   * store's code (`join(dataDir, 'demo.sqlite')`, the demo profile's), too large to sync in a test.
   */
  prepare?: (dataDir: string) => unknown;
  /** Runs once the core is up, before the web shell starts: wallets, syncs (wait for them here). */
  seed?: (core: Core) => Promise<unknown>;
  /** Downloads kept for the test to save (page.waitForEvent('download')). */
  acceptDownloads?: boolean;
  /** Scrollbars drawn (headless Chromium hides them): a test that drags a scrollbar's thumb. */
  scrollbars?: boolean;
  /** The browser's time zone (an IANA name: 'Europe/Berlin'); the machine's unless given. */
  timezoneId?: string;
  /** Load the app (`open()`) before the first test. */
  open?: boolean;
  /** The set-up's time limit in ms (vitest's hookTimeout unless given: a seed that syncs wants more). */
  timeout?: number;
  /**
   * The page's clock, in ms since the epoch: `Date.now()` and `new Date()` in the renderer return
   * this moment (playwright's page.clock.setFixedTime; timers keep running), so its "today" (the
   * default dates of Reconcile and the Monthly pack, a date picker's last day) is the simulator's
   * (`now: () => SIM_NOW`), whatever day the tests run on. The machine's clock unless given.
   */
  clock?: number;
}

export type SessionCoreOptions = Omit<CoreOptions, 'dataDir' | 'shell'>;

export interface WebSession {
  readonly core: Core;
  readonly shell: WebShell;
  readonly page: Page;
  /** What would show a broken page so far: uncaught errors and console errors (watchProblems). */
  readonly problems: string[];
  /** The core's data folder (a temporary one, removed after the file). */
  readonly dataDir: string;
  /** Loads the app at the tokened address, `route` (a hash: '#/timeline') appended, and waits until it has rendered. */
  open(route?: string): Promise<void>;
}

const RENDERER = join(import.meta.dirname, '../../out/renderer');

export function useWebSession(options: WebSessionOptions): WebSession {
  let made: { core: Core; shell: WebShell; page: Page; problems: string[]; dataDir: string } | null = null;
  const get = () => {
    if (!made) throw new Error('The web session is made in a beforeAll: read it in a test or a hook, not while the file is collected.');
    return made;
  };
  const session: WebSession = {
    get core() {
      return get().core;
    },
    get shell() {
      return get().shell;
    },
    get page() {
      return get().page;
    },
    get problems() {
      return get().problems;
    },
    get dataDir() {
      return get().dataDir;
    },
    async open(route = '') {
      const { page, shell } = get();
      await page.goto(`${shell.url}${route}`);
      await page.locator('#main').waitFor();
    },
  };
  // Kept apart from `made` so that a set-up failing halfway still closes what it started.
  let core: Core | undefined;
  let shell: WebShell | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    if (!existsSync(join(RENDERER, 'index.html'))) throw new Error('Build the renderer first: npx electron-vite build (npm test does).');
    const dataDir = tempDir();
    await options.prepare?.(dataDir);
    const own = typeof options.core === 'function' ? options.core() : (options.core ?? {});
    // As the web shell does, the session hands the core the demo service (a test's own options win).
    core = await createCore({ baseUrl: null, demo: demoStarter(), ...own, dataDir, shell: 'web' });
    await options.seed?.(core);
    shell = await startWebShell({ core, rendererDir: RENDERER });
    browser = await launchChromium({ ...(options.scrollbars && { scrollbars: true }) });
    const page = await browser.newPage({
      viewport: options.viewport,
      ...(options.acceptDownloads !== undefined && { acceptDownloads: options.acceptDownloads }),
      ...(options.timezoneId !== undefined && { timezoneId: options.timezoneId }),
    });
    if (options.clock !== undefined) await page.clock.setFixedTime(options.clock);
    made = { core, shell, page, problems: watchProblems(page), dataDir };
    if (options.open) await session.open();
  }, options.timeout);
  afterAll(async () => {
    await browser?.close();
    await shell?.close();
    await core?.close();
  });
  return session;
}

/** One question the page asked the core (POST api/<operation>): the operation and its input. */
export interface ApiAsk {
  op: string;
  input: Record<string, unknown>;
}

/** Every question the page asks the core from now on, in order: the list grows as it asks (empty it with `length = 0`). */
export function recordAsks(page: Page): ApiAsk[] {
  const asks: ApiAsk[] = [];
  page.on('request', (r) => {
    const m = /\/api\/([\w.]+)$/.exec(new URL(r.url()).pathname);
    if (!m || r.method() !== 'POST') return;
    const body = r.postData();
    asks.push({ op: m[1]!, input: body ? (JSON.parse(body) as Record<string, unknown>) : {} });
  });
  return asks;
}

/**
 * Waits for a state of the page (expect.poll); generous, as a loaded two-core machine can be
 * slow: no test sleeps a fixed time instead.
 */
export function poll<T>(fn: () => T | Promise<T>, timeout = 20_000): ReturnType<typeof expect.poll<T>> {
  return expect.poll(fn, { timeout });
}

/**
 * Waits until what the page shows has settled: no part of the main area still loading (its
 * skeletons are aria-busy), then two frames, so that layout run on the next frame (column
 * priority, a chart's size) has run too. What a test would otherwise sleep for.
 */
export async function settled(page: Page): Promise<void> {
  await poll(() => page.locator('main [aria-busy=true]').count()).toBe(0);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/** Two demo wallets on three wallet chains, as the screens' tests watch them: a treasury on eth and arb, a cold wallet on eth. */
export const TREASURY = '0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c';
export const COLD = '0x00000000219ab540356cbb839cbe05303d7705fa';

/**
 * A web session on the demo with the treasury and the cold wallet watched and synced, the
 * service's, the sync's and the page's today pinned together to SIM_NOW: the default periods of
 * Reconcile and the Monthly pack end on it, whatever the machine's date.
 */
export function useTreasurySession(o: { txnsPerWallet: number }): WebSession {
  return useWebSession({
    viewport: { width: 1440, height: 900 },
    core: { demo: demoStarter({ txnsPerWallet: o.txnsPerWallet, now: () => SIM_NOW }), now: () => SIM_NOW },
    clock: SIM_NOW,
    timeout: 120_000,
    seed: async (core) => {
      await core.call('wallets.add', { address: TREASURY, chains: ['eth', 'arb'], label: 'Treasury' });
      await core.call('wallets.add', { address: COLD, chains: ['eth'], label: 'Cold storage' });
      await waitForJobs(core, await core.call('sync.all', undefined));
    },
  });
}

/**
 * Screenshots of the page as it is, light and dark (test-results/screenshots/NAME-light.png,
 * -dark.png): each once the page has taken the scheme (its theme attribute follows the media
 * query) and settled; the page is left light.
 */
export async function shootBothThemes(page: Page, name: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await poll(() => page.evaluate(() => document.documentElement.dataset['theme'])).toBe(scheme);
    await settled(page);
    await shoot(page, `${name}-${scheme}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}
