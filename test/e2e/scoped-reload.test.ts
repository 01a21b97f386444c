import { beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../../src/main/core/app.ts';
import { poll, recordAsks, useWebSession, type ApiAsk } from '../support/web-session.ts';
import { waitForJobs } from '../support/jobs.ts';
import { demoStarter } from '../../src/sim/demo.ts';

/**
 * Reloads scoped to what changed (issue 11 item 6): the core's `data.changed` names the
 * wallet and the kind of data, and only views that read that wallet's data of that kind load
 * again. Real core, web shell and renderer in Chromium; the requests the page sends are the
 * evidence.
 */
const A = '0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c';
const B = '0x00000000219ab540356cbb839cbe05303d7705fa';
/** Every API request the page sent: operation and input. */
let sent: ApiAsk[];

/** Syncs a wallet's positions and waits for the job. */
const syncPositions = async (core: Core, wallet: string): Promise<void> => {
  await waitForJobs(core, [await core.call('sync.positions', { wallet })]);
};

const requests = (op: string, wallet?: string) => sent.filter((r) => r.op === op && (wallet === undefined || r.input['wallet'] === wallet)).length;

const web = useWebSession({
  viewport: { width: 1280, height: 800 },
  core: { demo: demoStarter({ txnsPerWallet: 200 }) },
  seed: async (core) => {
    await core.call('wallets.add', { address: A, chains: ['eth'], label: 'Treasury' });
    await core.call('wallets.add', { address: B, chains: ['eth'], label: 'Cold storage' });
    await Promise.all([syncPositions(core, A), syncPositions(core, B)]);
  },
});

beforeAll(() => {
  sent = recordAsks(web.page);
});

/** Waits until the page has heard of a change: the store refreshes the wallet statuses on every sync. */
async function heard(before: number): Promise<void> {
  await poll(() => requests('wallets.status')).toBeGreaterThan(before);
  // Anything the change reloads is asked for in the same task as that refresh. A request the page
  // sends a task later goes out after all of them: once it is seen, so is every reload (no sleep).
  const mark = `barrier=${++barriers}`;
  const seen = web.page.waitForRequest((r) => r.url().endsWith(mark));
  await web.page.evaluate(async (m) => {
    await new Promise((r) => setTimeout(r, 0));
    await fetch(`${location.origin}${location.pathname}${location.search}${location.search ? '&' : '?'}${m}`);
  }, mark);
  await seen;
}
let barriers = 0;

describe('reloads scoped by data.changed', () => {
  it('a sync of wallet A does not reload a view showing wallet B; a sync of B does', async () => {
    await web.page.goto(`${web.shell.url}#/positions?wallet=${B}`);
    await poll(() => web.page.locator('tbody tr').count()).toBeGreaterThan(0);
    // Positions reads its rows page by page (portfolio.rows), never the whole view.
    await poll(() => requests('portfolio.rows', B)).toBeGreaterThan(0);
    const forB = requests('portfolio.rows', B);
    const datesOfB = requests('positions.dates', B);

    let statuses = requests('wallets.status');
    await syncPositions(web.core, A);
    await heard(statuses);
    expect(requests('portfolio.rows', B)).toBe(forB);
    expect(requests('positions.dates', B)).toBe(datesOfB);
    expect(requests('portfolio.rows', A)).toBe(0);

    statuses = requests('wallets.status');
    await syncPositions(web.core, B);
    await heard(statuses);
    await poll(() => requests('portfolio.rows', B)).toBeGreaterThan(forB);
    await poll(() => requests('positions.dates', B)).toBeGreaterThan(datesOfB);
    expect(requests('portfolio.rows', A)).toBe(0);
  });

  it('the view of all wallets reloads for a change to either', async () => {
    await web.page.goto(`${web.shell.url}#/overview`);
    await poll(() => web.page.getByTestId('total-nav').isVisible()).toBe(true);
    // The view of all wallets asks for the summary of all (no wallet in its input).
    const forA = requests('portfolio.summary');
    const statuses = requests('wallets.status');
    await syncPositions(web.core, A);
    await heard(statuses);
    await poll(() => requests('portfolio.summary')).toBeGreaterThan(forA);
    expect(web.problems).toEqual([]);
  });
});
