import { describe, expect, it } from 'vitest';
import { createCore } from '../../src/main/core/app.ts';
import type { Alert } from '../../src/shared/model.ts';
import { WALLET } from '../support/sim.ts';
import { putPositions } from '../support/alerts.ts';
import { cacheOf, tempDir } from '../support/store.ts';
import { waitForJobs } from '../support/jobs.ts';
import { demoStarter } from '../../src/sim/demo.ts';

/** Alert rules through the contract: bad rules refused whole; a finished sync job checks the rules. */
describe('alerts through the contract', () => {
  it('refuses bad rules, snoozes and webhook URLs, and stores nothing of them', async () => {
    const core = await createCore({ dataDir: tempDir(), shell: 'web', baseUrl: null, env: {}, scheduleEveryMs: 0, demo: demoStarter() });
    try {
      await core.call('wallets.add', { address: WALLET, chains: ['eth'] });
      const all = { kind: 'all' };
      const bad: Array<[unknown, string]> = [
        [{ scope: all, condition: { kind: 'health', below: 0 } }, 'condition.below'],
        [{ scope: all, condition: { kind: 'health', below: -1 } }, 'condition.below'],
        [{ scope: all, condition: { kind: 'health', below: NaN } }, 'condition.below'],
        [{ scope: all, condition: { kind: 'health', below: 1e9 } }, 'condition.below'],
        [{ scope: all, condition: { kind: 'health', below: '1.1' } }, 'condition.below'],
        [{ scope: all, condition: { kind: 'unlock', withinDays: 0 } }, 'condition.withinDays'],
        [{ scope: all, condition: { kind: 'unlock', withinDays: 1.5 } }, 'condition.withinDays'],
        [{ scope: all, condition: { kind: 'nav-move', percent: Infinity } }, 'condition.percent'],
        [{ scope: all, condition: { kind: 'outflow', symbol: 'U'.repeat(65), above: 1 } }, 'condition.symbol'],
        [{ scope: all, condition: { kind: 'outflow', symbol: 'US\u202eDC', above: 1 } }, 'condition.symbol'],
        [{ scope: all, condition: { kind: 'outflow', symbol: '', above: 1 } }, 'condition.symbol'],
        [{ scope: all, condition: { kind: 'outflow', symbol: 'USDC', above: -1 } }, 'condition.above'],
        [{ scope: all, condition: { kind: 'stale', hours: 100_000 } }, 'condition.hours'],
        [{ scope: all, condition: { kind: 'stale', hours: 24, extra: 1 } }, 'condition'],
        [{ scope: all, condition: { kind: 'everything' } }, 'condition.kind'],
        [{ scope: { kind: 'wallet', address: '0x' + '7'.repeat(40) }, condition: { kind: 'stale', hours: 1 } }, 'wallet'],
        [{ scope: { kind: 'group', id: 99 }, condition: { kind: 'stale', hours: 1 } }, 'group'],
        [{ id: 42, scope: all, condition: { kind: 'stale', hours: 1 } }, 'id'],
      ];
      for (const [input, field] of bad) {
        const res = await core.dispatch('alerts.saveRule', input);
        expect(res, JSON.stringify(input)).toMatchObject({ ok: false, error: { kind: 'validation' } });
        if (!res.ok) expect(res.error.field, JSON.stringify(input)).toBe(field);
      }
      expect(await core.call('alerts.rules', undefined)).toEqual([]);
      for (const until of ['tomorrow', '2026-13-01T00:00:00Z', 'x'.repeat(41)])
        expect(await core.dispatch('alerts.snooze', { id: 1, until })).toMatchObject({ ok: false, error: { field: 'until' } });
      for (const url of ['ftp://example.com/hook', 'file:///etc/passwd', 'javascript:alert(1)', 'not a url', 'http://x/' + 'a'.repeat(2100)])
        expect(await core.dispatch('settings.update', { alertWebhookUrl: url }), url).toMatchObject({ ok: false, error: { field: 'alertWebhookUrl' } });
      expect((await core.call('settings.get', undefined)).alertWebhookUrl).toBeNull();
      expect(await core.dispatch('settings.update', { alertWebhookUrl: 'https://hooks.example.com/T0/abc' })).toMatchObject({ ok: true });
      const saved = await core.call('alerts.saveRule', {
        scope: { kind: 'wallet', address: WALLET.toUpperCase().replace('0X', '0x') },
        condition: { kind: 'health', below: 1.1 },
      });
      expect(saved).toMatchObject({ scope: { kind: 'wallet', address: WALLET }, condition: { kind: 'health', below: 1.1 } });
      expect(saved.lastCheck?.note).toMatch(/^0 lending positions checked/);
    } finally {
      await core.close();
    }
  });

  it('a finished sync job checks the rules: the alert is an event and in the inbox, once', async () => {
    const core = await createCore({ dataDir: tempDir(), shell: 'web', baseUrl: null, env: {}, scheduleEveryMs: 0, demo: demoStarter({ txnsPerWallet: 50 }) });
    try {
      await core.call('wallets.add', { address: WALLET, chains: ['eth'] });
      const fired: Alert[] = [];
      core.on('alert.fired', (a) => fired.push(a));
      // A low-health position cached already (as a sync of another date would leave it): a sync's end checks.
      putPositions(await cacheOf(core), WALLET, 'eth', '2099-01-01', { lending: { cid: 'L1', ratio: 1.2, threshold: 0.8 } });
      await core.call('alerts.saveRule', { scope: { kind: 'all' }, condition: { kind: 'nav-move', percent: 1 } });
      await core.call('alerts.saveRule', { scope: { kind: 'all' }, condition: { kind: 'unlock', withinDays: 1 } });
      // Saved now, checked now: nothing to say yet (one NAV date, no lock).
      expect(fired).toEqual([]);
      (await cacheOf(core))
        .prepare("INSERT INTO alert_rules (scope, condition, created_at) VALUES (?, ?, '2026-01-01T00:00:00.000Z')")
        .run(JSON.stringify({ kind: 'all' }), JSON.stringify({ kind: 'health', below: 1 }));
      await waitForJobs(core, [await core.call('sync.transactions', { wallet: WALLET })]);
      await expect.poll(() => fired.length).toBe(1);
      expect(fired[0]).toMatchObject({ kind: 'health', facts: { date: '2099-01-01', health: 0.96 } });
      const inbox = await core.call('alerts.inbox', undefined);
      expect(inbox.unread).toBe(1);
      expect(inbox.alerts.map((a) => a.id)).toEqual([fired[0]!.id]);
      await waitForJobs(core, [await core.call('sync.transactions', { wallet: WALLET })]);
      expect(await core.call('alerts.check', undefined)).toEqual([]);
      expect(fired).toHaveLength(1);
      expect(await core.call('alerts.acknowledge', { id: fired[0]!.id })).toBe(true);
      expect((await core.call('alerts.inbox', undefined)).unread).toBe(0);
    } finally {
      await core.close();
    }
  });
});
