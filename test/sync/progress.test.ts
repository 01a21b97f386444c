import { describe, expect, it } from 'vitest';
import type { JobInfo } from '../../src/shared/model.ts';
import { countTransactions } from '../../src/main/core/transactions/store/transactions.ts';
import { addWallet } from '../../src/main/core/store/wallets.ts';
import { engineFor } from '../support/engine.ts';
import { useSimulator, WALLET } from '../support/sim.ts';
import { createDB } from '../support/store.ts';

// 2,000 rows in pages of 100, one page at a time at 80 ms each: about 1.7 s of reading.
const ctx = useSimulator({ txnsPerWallet: 2000, latencyMs: 80 });

describe('sync progress events', () => {
  it('carry rows, pages, a rate, and a time left that falls as the history fills', async () => {
    const db = createDB();
    addWallet(db, { address: WALLET, chains: ['eth'] });
    // History from a known start (not the epoch), so the share covered means something.
    const { engine } = engineFor(ctx.sim, db, { inFlight: 1, transactionPageSize: 100, historyStart: Date.UTC(2024, 0, 1) / 1000 });
    const events: JobInfo[] = [];
    engine.onProgress((i) => events.push(i));
    await engine.syncTransactions(WALLET).result;
    const pages = events.filter((e) => e.pages !== undefined);
    expect(pages.length).toBeGreaterThan(10);
    // Counts rise page by page and end at what the cache holds.
    for (let i = 1; i < pages.length; i++) {
      expect(pages[i]!.rows!).toBeGreaterThanOrEqual(pages[i - 1]!.rows!);
      expect(pages[i]!.pages).toBe(pages[i - 1]!.pages! + 1);
    }
    const last = pages.at(-1)!;
    expect(last.rows).toBe(countTransactions(db, WALLET));
    expect(last.done).toBe(last.rows);
    expect(last.pages).toBe(21); // 20 full pages and the short (empty) one
    // After a second of reading, a rate and a time left; the estimate falls towards zero.
    const estimated = pages.filter((e) => e.etaSeconds !== null && e.etaSeconds !== undefined);
    expect(estimated.length).toBeGreaterThan(2);
    expect(estimated.every((e) => e.rate! > 0)).toBe(true);
    expect(estimated.at(-1)!.etaSeconds!).toBeLessThan(estimated[0]!.etaSeconds!);
  });
});
