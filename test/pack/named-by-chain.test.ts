import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Core, createCore } from '../../src/main/core/app.ts';
import { demoStarter } from '../../src/sim/demo.ts';
import { waitForJobs } from '../support/jobs.ts';
import { SIM_NOW, WALLET } from '../support/sim.ts';
import { tempDir } from '../support/store.ts';

/**
 * An address-book entry names an address on its chains only (docs/address-book.md): the same
 * address met on another chain is unknown there. The pack's flows by counterparty must then
 * show both: the named flows under the name, the others as unknown. Keyed by address alone, the
 * line took the name (or the lack of one) of whichever transaction came first, so an auditor
 * read "paid to Grantee X" for payments on a chain the name does not hold on, or did not see
 * them under the name at all.
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
  it('names the flows on the entry’s chains and leaves the others unknown, each its own line', async () => {
    const before = await core.call('pack.get', { month: '2026-10' });
    const all = before.byCounterparty.find((c) => c.key === BOTH)!;
    expect(all.transfers).toBeGreaterThan(0);
    const perChain: Record<string, number> = {};
    for (const chain of ['eth', 'arb']) {
      await core.request('counterparties.save', { address: BOTH, name: 'Grantee X', chains: [chain] });
      const p = await core.call('pack.get', { month: '2026-10' });
      const lines = p.byCounterparty.filter((c) => c.key === BOTH);
      const named = lines.find((c) => c.kind === 'book');
      const unknown = lines.find((c) => c.kind === 'unknown');
      expect(named?.label).toBe('Grantee X');
      expect(unknown?.label).toBe('0x5df0…8c92');
      // The address meets the wallet on both chains, so both lines have transfers.
      expect(named!.transfers).toBeGreaterThan(0);
      expect(unknown!.transfers).toBeGreaterThan(0);
      expect(named!.transfers + unknown!.transfers).toBe(all.transfers);
      perChain[chain] = named!.transfers;
    }
    expect(perChain.eth! + perChain.arb!).toBe(all.transfers);
    // Named on every chain: one line again.
    await core.request('counterparties.save', { address: BOTH, name: 'Grantee X' });
    const p = await core.call('pack.get', { month: '2026-10' });
    expect(p.byCounterparty.filter((c) => c.key === BOTH)).toMatchObject([{ label: 'Grantee X', kind: 'book', transfers: all.transfers }]);
  });
});
