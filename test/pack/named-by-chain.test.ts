import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Core, createCore } from '../../src/main/core/app.ts';
import { demoStarter } from '../../src/sim/demo.ts';
import { waitForJobs } from '../support/jobs.ts';
import { SIM_NOW, WALLET } from '../support/sim.ts';
import { tempDir } from '../support/store.ts';

/**
 * An address-book entry names an address on its chains only (docs/address-book.md): the same
 * address met on another chain is unknown there. The pack's flows by counterparty must then
 * still be one line per address (split into a named and an unnamed line, an auditor read the one
 * address as two counterparties: issue 41), under its name, saying on which chains the name holds.
 * Keyed by address alone before that, the line took the name (or the lack of one) of whichever
 * transaction came first, and said nothing of the chains.
 */
// A counterparty of the demo wallet on both eth and arb in October 2026 (the demo is seeded).
const BOTH = '0x5df05cc346980e40960c6294807da53820228c92';
let core: Core;

beforeAll(async () => {
  core = await createCore({ dataDir: tempDir(), shell: 'web', env: {}, demo: demoStarter({ now: () => SIM_NOW }), scheduleEveryMs: 0 });
  await core.call('wallets.add', { address: WALLET, chains: ['eth', 'arb'] });
  await waitForJobs(core, await core.call('sync.all', undefined));
  await waitForJobs(core, await Promise.all(['2026-09-30', '2026-10-31'].map((date) => core.call('sync.positions', { wallet: WALLET, date }))));
}, 240_000);
afterAll(() => core?.close());

describe('flows by counterparty, with a name that holds on some chains only', () => {
  it('one line per address: named, saying on which chains the name holds; totals unchanged', async () => {
    const before = await core.call('pack.get', { month: '2026-10' });
    const all = before.byCounterparty.find((c) => c.key === BOTH)!;
    expect(all.transfers).toBeGreaterThan(0);
    for (const [chain, other] of [
      ['eth', 'arb'],
      ['arb', 'eth'],
    ] as const) {
      await core.request('counterparties.save', { address: BOTH, name: 'Grantee X', chains: [chain] });
      const p = await core.call('pack.get', { month: '2026-10' });
      // Not "Grantee X" and an unnamed 0x5df0…8c92 beside it: one line, its flows all of the address's.
      expect(p.byCounterparty.filter((c) => c.key === BOTH)).toEqual([{ ...all, label: `Grantee X (named on ${chain}; not on ${other})`, kind: 'book' }]);
      expect(p.byCounterparty.filter((c) => c.key !== BOTH)).toEqual(before.byCounterparty.filter((c) => c.key !== BOTH));
      expect(p.change).toEqual(before.change);
    }
    // Named on every chain: the name alone.
    await core.request('counterparties.save', { address: BOTH, name: 'Grantee X' });
    const p = await core.call('pack.get', { month: '2026-10' });
    expect(p.byCounterparty.filter((c) => c.key === BOTH)).toEqual([{ ...all, label: 'Grantee X', kind: 'book' }]);
  });
});
