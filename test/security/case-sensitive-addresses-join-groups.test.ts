import { describe, expect, it } from 'vitest';
import { createCore } from '../../src/main/core/app.ts';
import { upsertTransactions } from '../../src/main/core/transactions/store/transactions.ts';
import { cliAsync } from '../support/hostile-service.ts';
import { WALLET } from '../support/sim.ts';
import { cacheOf, tempDir } from '../support/store.ts';
import { transactionRow } from '../support/transactions.ts';
import { demoStarter } from '../../src/sim/demo.ts';

/**
 * Finding: a wallet of a case-sensitive chain (Solana's base58) could not join a group: the
 * store lower-cased every member. The wallets table keeps EVM addresses in lower case and
 * every other address exactly; groups (and the scoped queries) now compare the same way, and
 * a base58 address differing only in case is another wallet, never this one.
 */
const SOL = '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV';
const SOL_LOWER = SOL.toLowerCase();
const CHECKSUMMED = '0x5A0b54D5dc17e0AadC383d2db43B0a0D3E029c4c';

describe('groups compare addresses as the wallets table does', () => {
  it('through the contract: a Solana member joins as written, an EVM one in any case', async () => {
    const core = await createCore({ dataDir: tempDir(), shell: 'web', baseUrl: null, env: {}, demo: demoStarter() });
    try {
      await core.call('wallets.add', { address: SOL, chains: ['sol'], label: 'Sol' });
      await core.call('wallets.add', { address: WALLET, chains: ['eth'] });

      // Not watched: the lower-case form of the base58 address is a different wallet.
      expect(await core.dispatch('groups.save', { name: 'Wrong', wallets: [SOL_LOWER] })).toMatchObject({
        ok: false,
        error: { field: 'wallets', message: `Not watched: ${SOL_LOWER}. Add the wallet first.` },
      });
      const g = await core.call('groups.save', { name: 'Mixed', wallets: [SOL, CHECKSUMMED] });
      expect([...g.wallets].sort()).toEqual([SOL, WALLET].sort());

      // A group of it scopes the timeline to its transactions.
      upsertTransactions(await cacheOf(core), SOL, 'sol', [
        transactionRow({ wallet_id: SOL, chain_id: 'sol', txn_hash: 'So1' + 'a'.repeat(60), date: '2025-06-01T00:00:00.000Z' }),
      ]);
      const solOnly = await core.call('groups.save', { name: 'Sol only', wallets: [SOL] });
      const page = await core.call('timeline.page', { group: solOnly.id });
      expect(page.rows.map((r) => r.wallet)).toEqual([SOL]);
      expect((await core.call('timeline.page', { wallet: SOL })).rows).toHaveLength(1);

      // A case variant of it, watched too, is its own wallet: removing one leaves the other.
      await core.call('wallets.add', { address: SOL_LOWER, chains: ['sol'] });
      expect(await core.call('wallets.remove', { address: SOL_LOWER })).toBe(true);
      expect((await core.call('wallets.list', undefined)).map((w) => w.address).sort()).toEqual([SOL, WALLET].sort());
      expect(await core.call('wallets.remove', { address: SOL_LOWER })).toBe(false);
      expect((await core.call('groups.list', undefined)).find((x) => x.id === solOnly.id)!.wallets).toEqual([SOL]);
    } finally {
      await core.close();
    }
  });

  it('a case variant of a watched base58 address is never taken for it (groups, remove)', async () => {
    const core = await createCore({ dataDir: tempDir(), shell: 'web', baseUrl: null, env: {}, demo: demoStarter() });
    try {
      await core.call('wallets.add', { address: SOL_LOWER, chains: ['sol'] });
      expect(await core.dispatch('groups.save', { name: 'G', wallets: [SOL] })).toMatchObject({ ok: false, error: { field: 'wallets' } });
      expect(await core.call('groups.list', undefined)).toEqual([]);
      expect(await core.call('wallets.remove', { address: SOL })).toBe(false);
      expect((await core.call('wallets.list', undefined)).map((w) => w.address)).toEqual([SOL_LOWER]);
    } finally {
      await core.close();
    }
  });

  it('through the CLI: group save with a Solana address', async () => {
    const g = ['--data-dir', tempDir()];
    const add = await cliAsync([...g, 'wallet', 'add', SOL, '--chains', 'sol']);
    expect(add.status, add.stderr).toBe(0);
    const saved = await cliAsync([...g, 'group', 'save', 'Sol', '--wallets', SOL]);
    expect(saved.status, saved.stderr).toBe(0);
    expect(saved.stdout).toContain(`Group 1 "Sol": ${SOL}.`);
    expect(JSON.parse((await cliAsync([...g, 'group', 'list', '--json'])).stdout)).toEqual([
      { id: 1, name: 'Sol', wallets: [SOL], version: expect.any(Number) },
    ]);
    const wrong = await cliAsync([...g, 'group', 'save', 'Sol', '--wallets', SOL_LOWER]);
    expect(wrong.status).toBe(1);
    expect(wrong.stderr).toContain(`Not watched: ${SOL_LOWER}.`);
  });
});
