import { describe, expect, it } from 'vitest';
import { walletCacheSummaries } from '../../src/main/core/sync/store/status.ts';
import { owedSeams } from '../../src/main/core/transactions/store/seams.ts';
import { incompleteReasons, listRanges } from '../../src/main/core/transactions/store/transactions.ts';
import { addWallet } from '../../src/main/core/store/wallets.ts';
import { parseConventions } from '../../src/sim/conventions.ts';
import { compare, expectExact, liveSimOptions } from '../support/live.ts';
import { engineFor } from '../support/engine.ts';
import { SIM_NOW, useSimulator, WALLET } from '../support/sim.ts';
import { createDB } from '../support/store.ts';

/**
 * A page seam whose re-read fails (issue 30, item 3). Before the fix the failure failed the job,
 * and since the seam's range was already complete the next sync never looked there again: the
 * rows the unstable order hid at the seam stayed missing, "ok". Now a seam is owed from the
 * moment its page is written (migration 20), the history there is shown unproved until a
 * re-read proves it, and every sync reads the owed seams again.
 */
for (const reading of [[], ['time-unit=ms', 'order=oldest-first']]) {
  describe(`live: a seam re-read that fails is retried by the next sync${reading.length ? ` (${reading.join(' ')})` : ''}`, () => {
    const ctx = useSimulator({ ...liveSimOptions({ modes: ['burst'] }), conventions: parseConventions(reading) });

    it('the failed seams stay owed and unproved, then the next sync reads them and the cache is exact', async () => {
      const db = createDB();
      addWallet(db, { address: WALLET, chains: ['eth'] });
      const { engine } = engineFor(ctx.sim, db, { transactionPageSize: 100, now: () => SIM_NOW });
      // Learned first: the conventions probe asks narrow windows too, and the fault is for the re-reads.
      await engine.checkService();
      // Every request for one second (a seam between rows of one second) fails: a 503 each time.
      ctx.sim.setFaults([{ kind: 'server-error', status: 503, maxSpanSeconds: 2 }]);
      const [first] = await engine.syncTransactions(WALLET).result;
      ctx.sim.setFaults([]);
      expect(first!.complete).toBe(false);
      expect(first!.reasons.join('\n')).toMatch(
        /the transactions at .* UTC \(and at \d+ more page seams?\) are not proved complete: two pages met between transactions of one second.*its last re-read: it failed \(.*503.*\)\. The next sync reads them again\./,
      );
      // Every range is read; the seams are what is owed, and they say so wherever completeness is shown.
      expect(listRanges(db, WALLET, 'eth').every((r) => r.state === 'complete')).toBe(true);
      const owed = owedSeams(db, WALLET, 'eth');
      expect(owed.length).toBeGreaterThan(0);
      // The seams between rows of one second, and (a row met twice at one: the list moved) every other seam of the read.
      expect(owed.filter((s) => s.lo === s.hi).length).toBeGreaterThan(0);
      expect(owed[0]!.tries).toBe(1);
      expect(owed.slice(1).every((s) => s.tries === 0)).toBe(true);
      expect(walletCacheSummaries(db, [WALLET]).get(WALLET)!.openRanges).toBeGreaterThan(0);
      expect(incompleteReasons(db, WALLET).join('\n')).toMatch(/^eth: the transactions at .* are not proved complete/m);
      // The unstable order hid rows at those seams: missing until they are read again.
      expect(compare(ctx.sim, db).missing.length).toBeGreaterThan(0);

      const [second] = await engine.syncTransactions(WALLET).result;
      expect(second!.reasons).toEqual([]);
      expect(second!.complete).toBe(true);
      expect(second!.recent!.seamRows).toBeGreaterThan(0);
      expect(owedSeams(db, WALLET, 'eth')).toEqual([]);
      expect(walletCacheSummaries(db, [WALLET]).get(WALLET)!.openRanges).toBe(0);
      expect(incompleteReasons(db, WALLET)).toEqual([]);
      expectExact(compare(ctx.sim, db));
    });
  });
}
