import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Core, createCore } from '../../src/main/core/app.ts';
import { decodeLog, eventName } from '../../src/shared/signatures.ts';
import { demoStarter } from '../../src/sim/demo.ts';
import { waitForJobs } from '../support/jobs.ts';
import { SIM_NOW } from '../support/sim.ts';
import { tempDir } from '../support/store.ts';

/**
 * The demo as a newcomer meets it (issue 27): the core in demo mode with the shells' starter,
 * the two wallets the first screen offers, synced; then the two features tried first. Reconcile:
 * every token's plain wallet balance moves by exactly its transfers, so whatever is unexplained
 * sits in protocol positions (interest, rebases, rewards, pools). Logs: every log of the demo's
 * transactions decodes as a well-known event.
 */
const DEMO_WALLETS = [
  { address: '0x5a0b54d5dc17e0aadc383d2db43b0a0d3e029c4c', chains: ['eth', 'arb'] },
  { address: '0x00000000219ab540356cbb839cbe05303d7705fa', chains: ['eth'] },
];
/** The last complete month before the demo's clock, and one well inside the history. */
const PERIODS = [
  ['2026-09-30', '2026-10-31'],
  ['2025-05-31', '2025-06-30'],
] as const;
let core: Core;

beforeAll(async () => {
  core = await createCore({ dataDir: tempDir(), shell: 'web', env: {}, demo: demoStarter({ now: () => SIM_NOW }), scheduleEveryMs: 0 });
  for (const w of DEMO_WALLETS) await core.call('wallets.add', { address: w.address, chains: w.chains });
  await waitForJobs(core, await core.call('sync.all', undefined));
  const dates = [...new Set(PERIODS.flat())];
  for (const w of DEMO_WALLETS) await waitForJobs(core, await Promise.all(dates.map((date) => core.call('sync.positions', { wallet: w.address, date }))));
}, 120_000);
afterAll(() => core?.close());

describe('the demo adds up', () => {
  it.each(PERIODS)('reconciles every plain wallet balance exactly from %s to %s; the rest is in protocol positions', async (from, to) => {
    const r = await core.call('reconcile.get', { from, to });
    expect(r.problems).toEqual([]);
    expect(r.complete).toBe(true);
    expect(new Set(r.rows.map((x) => x.wallet))).toEqual(new Set(DEMO_WALLETS.map((w) => w.address)));
    for (const x of r.rows) {
      const what = `${x.wallet} ${x.chain} ${x.token_symbol}`;
      expect(x.wallet_unexplained_qty, what).toBe(0);
      expect(x.unexplained_qty, what).toBe(x.position_change_qty);
      expect(x.status === 'reconciled' || (x.status === 'unexplained' && x.position_change_qty !== 0), what).toBe(true);
    }
    // Tokens that moved and are held plainly only close to the last digit.
    expect(r.rows.filter((x) => x.status === 'reconciled' && x.inflow_qty + x.outflow_qty > 0).length).toBeGreaterThan(3);
  });

  it('decodes every log of the demo transactions a newcomer opens', async () => {
    const page = await core.call('timeline.page', { limit: 60 });
    const rows = page.rows.filter((t) => t.status === 1);
    const actions = new Set(rows.map((t) => t.actionType));
    expect(actions.size).toBeGreaterThan(5);
    let decoded = 0;
    const names = new Set<string>();
    // One or two of each action, as a person clicking down the timeline would.
    for (const action of actions) {
      for (const t of rows.filter((x) => x.actionType === action).slice(0, 2)) {
        const set = await core.call('logs.get', { chain: t.chain, txnHash: t.txnHash });
        expect(set.complete).toBe(true);
        for (const l of set.logs) {
          const d = decodeLog(l.topics, l.data);
          expect(d, `${t.txnHash} ${action} log ${l.log_index}: ${eventName(l.topics[0]) ?? 'not a well-known event'}`).not.toBeNull();
          names.add(d!.name);
          decoded++;
        }
        // Each token the transaction moved (but the native one, which moves without a log) has its Transfer.
        const erc20 = t.details.filter((d) => d.token_cid !== '0x' + 'e'.repeat(40));
        if (erc20.length) expect(set.logs.some((l) => decodeLog(l.topics, l.data)?.name === 'Transfer')).toBe(true);
      }
    }
    expect(decoded).toBeGreaterThan(10);
    expect(names).toContain('Transfer');
  });
});
