import { describe, expect, it } from 'vitest';
import { createCore } from '../../src/main/core/app.ts';
import { tempDir } from '../support/store.ts';
import { demoStarter } from '../../src/sim/demo.ts';

/** Finding: changing a wallet's chains did not re-check its address against them. */
describe('a chain change re-validates the address', () => {
  it('a non-EVM address cannot be moved onto an EVM chain; nothing changes', async () => {
    const core = await createCore({ dataDir: tempDir(), shell: 'web', baseUrl: null, env: {}, demo: demoStarter() });
    try {
      const btc = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
      await core.call('wallets.add', { address: btc, chains: ['btc'] });
      const r = await core.dispatch('wallets.update', { address: btc, chains: ['btc', 'eth'] });
      expect(r).toMatchObject({ ok: false, error: { kind: 'validation', field: 'address' } });
      expect((await core.call('wallets.list', undefined))[0]!.chains).toEqual(['btc']);
    } finally {
      await core.close();
    }
  });

  it('an address kept as written for a non-EVM chain is re-checked in its EVM form; nothing changes', async () => {
    const core = await createCore({ dataDir: tempDir(), shell: 'web', baseUrl: null, env: {}, demo: demoStarter() });
    try {
      const mixed = '0xAbCdEf0123456789aBcDeF0123456789AbCdEf01';
      await core.call('wallets.add', { address: mixed, chains: ['tron'] });
      const r = await core.dispatch('wallets.update', { address: mixed, chains: ['eth'] });
      expect(r).toMatchObject({ ok: false, error: { kind: 'validation', field: 'chains' } });
      expect(r.ok || r.error.message).toContain(mixed.toLowerCase());
      expect(await core.call('wallets.list', undefined)).toMatchObject([{ address: mixed, chains: ['tron'] }]);
    } finally {
      await core.close();
    }
  });
});
