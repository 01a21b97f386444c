import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { chainById } from '../../src/sim/chains.ts';
import { demoStarter } from '../../src/sim/demo.ts';
import type { Simulator } from '../../src/sim/server.ts';
import { bothThemes } from './axe.ts';
import { waitForJobs } from '../support/jobs.ts';
import { liveSimOptions } from '../support/live.ts';
import { SIM_NOW, WALLET } from '../support/sim.ts';
import { poll, useWebSession } from '../support/web-session.ts';

/**
 * The change log on screen and in the CSV (issue 30, "correct over time"): a live service
 * reorganises after the first sync (a transaction removed, one replaced, one's block, status,
 * fee and transfers changed); the next sync finds it. The timeline marks the restated rows,
 * "N changed since first seen" opens the list (what changed, from what to what, when, which
 * request), and the transactions CSV says it in its `restated` column.
 */
let sim: Simulator;
const web = useWebSession({
  viewport: { width: 1440, height: 900 },
  core: {
    demo: async (key) => (sim = await demoStarter({ ...liveSimOptions({ modes: ['reorg'] }, 600), now: () => SIM_NOW })(key)),
    // The sync's clock is the service's, the page's too: the reorg is inside the range synced whatever the machine's date.
    now: () => SIM_NOW,
    scheduleEveryMs: 0,
  },
  clock: SIM_NOW,
  timeout: 120_000,
  acceptDownloads: true,
  seed: async (core) => {
    await core.call('wallets.add', { address: WALLET, chains: ['eth'], label: 'Treasury' });
    await waitForJobs(core, [await core.call('sync.transactions', { wallet: WALLET })]);
    sim.live!.settle(WALLET, chainById('eth')!);
    await waitForJobs(core, [await core.call('sync.transactions', { wallet: WALLET })]);
  },
});

describe('the change log', () => {
  it('marks restated rows in the timeline, lists every change, and says so in the CSV', async () => {
    const log = await web.core.call('changes.list', {});
    expect(log.length).toBeGreaterThanOrEqual(5);
    expect(new Set(log.map((c) => c.kind))).toEqual(new Set(['late', 'changed', 'removed']));
    await web.open('#/timeline');
    const button = web.page.getByTestId('changes');
    await poll(() => button.textContent()).toBe(`${log.length} changed since first seen`);
    // The rows still cached that were restated carry a badge (a removed one is in the list only).
    const restated = log.filter((c) => c.kind !== 'removed').map((c) => c.txnHash);
    const page = await web.core.call('timeline.page', { limit: 1000 });
    expect(
      page.rows
        .filter((r) => r.restated)
        .map((r) => r.txnHash)
        .sort(),
    ).toEqual([...new Set(restated)].sort());
    await button.click();
    const dialog = web.page.getByRole('dialog', { name: 'Changed since first seen' });
    await poll(() => dialog.isVisible()).toBe(true);
    expect(await dialog.locator('tbody tr').count()).toBe(log.length);
    const text = await dialog.textContent();
    expect(text).toContain('removed');
    expect(text).toContain('indexed late');
    expect(text).toMatch(/block: \d+ → \d+/);
    await bothThemes(web.page, 'change-log');
    await web.page.keyboard.press('Escape');

    // The CSV says it too: the restated transactions' lines name the change, the others are empty.
    // Read as the user gets it: the open page downloads a finished export, and the shell serves
    // it once and deletes it (src/main/web/downloads.ts), so the download is the only copy.
    const download = web.page.waitForEvent('download');
    const job = await web.core.request('export.start', { format: 'csv', report: 'transactions' });
    expect(job).not.toBeNull();
    await waitForJobs(web.core, [job!]);
    const file = join(web.dataDir, 'transactions.csv');
    await (await download).saveAs(file);
    const records = parse(readFileSync(file), { columns: true, bom: true }) as Array<Record<string, string>>;
    const marked = new Set(records.filter((x) => x['restated']).map((x) => x['txn_hash']));
    expect([...marked].sort()).toEqual([...new Set(restated)].sort());
    expect(records.filter((x) => (x['restated'] ?? '').startsWith('changed: ')).length).toBeGreaterThan(0);
    expect(records.some((x) => x['restated'] === 'indexed late')).toBe(true);
    expect(web.problems).toEqual([]);
  });
});
