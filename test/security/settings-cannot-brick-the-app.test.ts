// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { createCore } from '../../src/main/core/app.ts';
import { cacheOf, tempDir } from '../support/store.ts';
import { demoStarter } from '../../src/sim/demo.ts';

/**
 * Finding: settings.update accepted any locale string; "en_US" or "xx-invalid-!!" made every
 * later page load throw "Invalid language tag" and the app showed no wallets.
 */
describe('settings are validated against what the platform supports', () => {
  it('refuses a locale Intl does not accept, changing nothing', async () => {
    const core = await createCore({ dataDir: tempDir(), shell: 'web', baseUrl: null, env: {}, demo: demoStarter() });
    try {
      for (const bad of ['en_US', 'xx-invalid-!!', 'zz', '12']) {
        const r = await core.dispatch('settings.update', { locale: bad });
        expect(r, bad).toMatchObject({ ok: false, error: { kind: 'validation', field: 'locale' } });
      }
      expect((await core.call('settings.get', undefined)).locale).toBeNull();
      expect(await core.dispatch('settings.update', { locale: 'de-DE' })).toMatchObject({ ok: true, result: { locale: 'de-DE' } });
      expect(await core.dispatch('wallets.list', undefined)).toMatchObject({ ok: true });
    } finally {
      await core.close();
    }
  });

  it('a stored setting that fails validation at load is ignored with a notice; the others still apply', async () => {
    const core = await createCore({ dataDir: tempDir(), shell: 'web', baseUrl: null, env: {}, demo: demoStarter() });
    try {
      await core.call('settings.update', { theme: 'dark', transactionPageSize: 200 });
      // As an older version or a hand edit could have left them.
      const put = (await cacheOf(core)).prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
      put.run('locale', JSON.stringify('en_US'));
      put.run('chains', 'not json');
      const s = await core.call('settings.get', undefined);
      expect(s).toMatchObject({ theme: 'dark', transactionPageSize: 200, locale: null, chains: ['eth', 'arb', 'op', 'base', 'matic', 'bsc'] });
      expect(s.notices).toHaveLength(2);
      expect(s.notices!.join(' ')).toMatch(/locale setting \("en_US"\) is not valid here and was ignored/);
      expect(s.notices!.join(' ')).toMatch(/chains setting .* was ignored/);
    } finally {
      await core.close();
    }
  });
});
