import { describe, expect, it, vi } from 'vitest';
import { createCore } from '../../src/main/core/app.ts';
import { findHealthDip, MONTH_ENDS } from '../support/health-dip.ts';
import { tempDir } from '../support/store.ts';
import { waitForJobs } from '../support/jobs.ts';
import { WALLET } from '../support/sim.ts';
import { demoStarter } from '../../src/sim/demo.ts';

/**
 * The desktop layer shows each fired alert as an OS notification (Electron cannot launch here:
 * its Notification is mocked). The alert is a real health dip synced from the demo service.
 */
const state = vi.hoisted(() => ({ shown: [] as Array<{ title: string; body: string; click: () => void }>, supported: true }));

vi.mock('electron', () => {
  class Notification {
    static isSupported() {
      return state.supported;
    }
    handlers: Record<string, () => void> = {};
    constructor(readonly options: { title: string; body: string }) {}
    on(event: string, h: () => void) {
      this.handlers[event] = h;
      return this;
    }
    show() {
      state.shown.push({ ...this.options, click: () => this.handlers['click']?.() });
    }
  }
  return { Notification };
});

const { notifyAlerts } = await import('../../src/main/electron/notifications.ts');

describe('alerts as desktop notifications', () => {
  it('a health dip from the demo service becomes one notification; a click calls back with the alert', { timeout: 120_000 }, async () => {
    const probe = await createCore({ dataDir: tempDir(), shell: 'electron', baseUrl: null, scheduleEveryMs: 0, demo: demoStarter({ txnsPerWallet: 50 }) });
    let dip: Awaited<ReturnType<typeof findHealthDip>>;
    try {
      await probe.call('wallets.add', { address: WALLET, chains: ['eth'] });
      dip = await findHealthDip(probe, WALLET, MONTH_ENDS.slice(1), MONTH_ENDS[0]);
    } finally {
      await probe.close();
    }
    const core = await createCore({ dataDir: tempDir(), shell: 'electron', baseUrl: null, scheduleEveryMs: 0, demo: demoStarter({ txnsPerWallet: 50 }) });
    const clicked: number[] = [];
    const stop = notifyAlerts(core, (a) => clicked.push(a.id));
    try {
      await core.call('wallets.add', { address: WALLET, chains: ['eth'], label: 'Treasury' });
      await core.call('alerts.saveRule', { scope: { kind: 'all' }, condition: { kind: 'health', below: dip.threshold } });
      await waitForJobs(core, [await core.call('sync.positions', { wallet: WALLET, date: dip.from })]);
      // The alert rules this sync set off have run (sync.settle): nothing fired, nothing shown.
      await core.call('sync.settle', undefined);
      expect(state.shown).toEqual([]);
      await waitForJobs(core, [await core.call('sync.positions', { wallet: WALLET, date: dip.to })]);
      await expect.poll(() => state.shown.length).toBe(1);
      const [n] = state.shown;
      expect(n!.title).toMatch(new RegExp(`^Health \\d\\.\\d+ below ${dip.threshold}: `));
      expect(n!.body).toContain(`of Treasury (${WALLET}) on eth, ${dip.to}: collateral/debt`);
      expect(n!.body.length).toBeLessThanOrEqual(240);
      n!.click();
      const [alert] = (await core.call('alerts.inbox', undefined)).alerts;
      expect(clicked).toEqual([alert!.id]);
      // Checked again, still below: no second notification.
      await core.call('alerts.check', undefined);
      expect(state.shown).toHaveLength(1);
      // Where the OS has no notifications, nothing is shown and nothing fails.
      state.supported = false;
      await core.call('alerts.saveRule', { scope: { kind: 'wallet', address: WALLET }, condition: { kind: 'health', below: dip.threshold } });
      expect((await core.call('alerts.inbox', undefined)).unread).toBe(2);
      expect(state.shown).toHaveLength(1);
    } finally {
      stop();
      await core.close();
    }
  });
});
