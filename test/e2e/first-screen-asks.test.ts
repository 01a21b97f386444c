import { beforeAll, describe, expect, it } from 'vitest';
import { demoStarter } from '../../src/sim/demo.ts';
import { waitForJobs } from '../support/jobs.ts';
import { poll, recordAsks, useWebSession, type ApiAsk } from '../support/web-session.ts';

/**
 * A first screen asks for what it shows, once (issue 40): with no date in the address, Overview's
 * date is the newest the scope has cached, and nothing is asked for another date first. Before,
 * the dated screens asked for today, then for the newest cached date a moment later; at a fund's
 * scale the core built a whole view for a date with nothing cached, in the way of the one shown.
 * Real core, web shell and renderer in Chromium; the requests the page sends are the evidence.
 */
const A = '0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c';
/** A month end two months before today (any day the suite runs): never today. */
const CACHED = (() => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 0)).toISOString().slice(0, 10);
})();

let sent: ApiAsk[];

const web = useWebSession({
  viewport: { width: 1280, height: 800 },
  core: { demo: demoStarter() },
  seed: async (core) => {
    await core.call('wallets.add', { address: A, chains: ['eth'], label: 'Treasury' });
    await waitForJobs(core, [await core.call('sync.positions', { wallet: A, date: CACHED })]);
  },
});

beforeAll(() => {
  sent = recordAsks(web.page);
});

describe('the first screen', () => {
  it('asks for the newest cached date only: no summary, coverage or NAV for today first', async () => {
    expect(CACHED < new Date().toISOString().slice(0, 10)).toBe(true);
    await web.page.goto(`${web.shell.url}#/overview`);
    await poll(() => web.page.getByTestId('total-nav').count()).toBeGreaterThan(0);
    await poll(() => sent.filter((r) => r.op === 'nav.history').length).toBeGreaterThan(0);
    const dated = sent.filter((r) => ['portfolio.summary', 'positions.coverage'].includes(r.op));
    expect(dated.length).toBeGreaterThan(0);
    expect(dated.map((r) => `${r.op} ${String(r.input['date'])}`)).toEqual(dated.map((r) => `${r.op} ${CACHED}`));
    expect(sent.filter((r) => r.op === 'nav.history').map((r) => r.input['to'])).toEqual(sent.filter((r) => r.op === 'nav.history').map(() => CACHED));
    // Each asked once for the screen (a reload of the page would ask again, nothing else does here).
    expect(sent.filter((r) => r.op === 'portfolio.summary')).toHaveLength(1);
    await expect(web.page.getByTestId('total-nav').textContent()).resolves.toMatch(/\$/);
  });
});
