import { describe, expect, it } from 'vitest';
import { exportCompleteness } from '../../src/main/core/reports/export-job.ts';
import { addWallet } from '../../src/main/core/store/wallets.ts';
import { markSynced } from '../support/analytics.ts';
import { createDB } from '../support/store.ts';

/**
 * An export whose period runs into today (issue 27: "every export that reaches today says
 * 'incomplete … sync again' right after a successful sync", which no sync could mend): today is
 * proved up to a sync that ended within the last 15 minutes; an older one is named as the limit.
 */
const W = '0x' + '7'.repeat(40);
const today = new Date().toISOString().slice(0, 10);
const nowS = Math.floor(Date.now() / 1000);

// Synced from before the periods asked (2025-01-01 on), whatever day the test runs on.
const FROM_2024 = Date.parse('2024-01-01T00:00:00Z') / 1000;

describe('an export that reaches today', () => {
  it('is complete right after a sync, and says how far an old sync reached', () => {
    const fresh = createDB();
    addWallet(fresh, { address: W, chains: ['eth'] });
    markSynced(fresh, W, 'eth', FROM_2024, nowS - 120);
    expect(exportCompleteness(fresh, { wallet: W, from: '2025-01-01', to: today }).reasons).toEqual([]);

    const stale = createDB();
    addWallet(stale, { address: W, chains: ['eth'] });
    markSynced(stale, W, 'eth', FROM_2024, nowS - 2 * 3600);
    const c = exportCompleteness(stale, { wallet: W, from: '2025-01-01', to: today });
    expect(c.state).toBe('incomplete');
    expect(c.reasons.join()).toMatch(/synced only up to \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
    // A wallet without a label is named by its address; one with a label by it (the export's notice shows the reason).
    expect(c.reasons[0]).toMatch(/^0x77777777… eth: synced only up to/);
    const named = createDB();
    addWallet(named, { address: W, chains: ['eth'], label: 'Treasury' });
    markSynced(named, W, 'eth', FROM_2024, nowS - 2 * 3600);
    expect(exportCompleteness(named, { wallet: W, from: '2025-01-01', to: today }).reasons[0]).toMatch(/^Treasury · eth: synced only up to/);
    // A past period is proved to its last second, as before.
    expect(exportCompleteness(fresh, { wallet: W, from: '2025-01-01', to: '2025-06-30' }).state).toBe('complete');
    // A history synced from after the period's start names that end, not the other.
    const late = createDB();
    addWallet(late, { address: W, chains: ['eth'] });
    markSynced(late, W, 'eth', Date.parse('2025-03-01T00:00:00Z') / 1000, nowS - 120);
    expect(exportCompleteness(late, { wallet: W, from: '2025-01-01', to: '2025-06-30' }).reasons).toEqual([
      '0x77777777… eth: synced only from 2025-03-01 00:00 UTC',
    ]);
  });
});
