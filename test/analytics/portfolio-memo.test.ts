import Database from 'better-sqlite3-multiple-ciphers';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoisedViews, type ViewReader } from '../../src/main/core/portfolio/memo.ts';
import { portfolioViewUnlessAborted } from '../../src/main/core/portfolio/view.ts';
import { openDatabase, type WritableDB } from '../../src/main/core/store/db.ts';
import { listWallets } from '../../src/main/core/store/wallets.ts';
import type { Wallet } from '../../src/shared/model.ts';
import { seedFund } from '../support/fund.ts';
import { tempDir } from '../support/store.ts';

/**
 * The portfolio's kept views (src/main/core/portfolio/memo.ts): a view asked again of an
 * unchanged cache is the one built, and a write of what it reads, by this connection or another,
 * makes the next ask build it again, so a kept view is never older than the cache
 * (test/analytics/portfolio-parts.test.ts: every kind of write, and the writes it does not read).
 */
const DATE = '2026-10-31';
const signal = new AbortController().signal;

describe('kept portfolio views', () => {
  let dir: string;
  let db: WritableDB;
  let builds = 0;
  let during: (() => void) | null = null;
  const counting: ViewReader = async (d, wallets, date, s) => {
    builds++;
    during?.();
    return portfolioViewUnlessAborted(d, wallets, date, s);
  };
  const fresh = () => portfolioViewUnlessAborted(db, listWallets(db), DATE, signal);

  beforeAll(() => {
    dir = tempDir();
    db = openDatabase(join(dir, 'fund.sqlite'));
    seedFund(db, { wallets: 6, chains: 2, date: DATE });
  });
  afterAll(() => db.close());

  it('gives the same view again while nothing is written, for the same scope and date only', async () => {
    const views = memoisedViews(counting);
    builds = 0;
    const all = listWallets(db);
    const first = await views(db, all, DATE, signal);
    expect(await views(db, all, DATE, signal)).toBe(first);
    expect(builds).toBe(1);
    // Another scope, another date: built, and the first still kept (two are kept).
    await views(db, all.slice(0, 2), DATE, signal);
    await views(db, all, '2026-10-30', signal);
    expect(builds).toBe(3);
    expect(await views(db, all, '2026-10-30', signal)).not.toBe(first);
    expect(builds).toBe(3);
    // A wallet's label is part of the scope as read: a relabelled wallet is another view.
    const relabelled = all.map((w, i) => (i === 0 ? { ...w, label: 'Renamed' } : w));
    expect((await views(db, relabelled, DATE, signal)).members[0]!.label).toBe('Renamed');
  });

  it('keeps all wallets, a group and one wallet asked in turn: each built once, not once per ask', async () => {
    const views = memoisedViews(counting);
    builds = 0;
    const all = listWallets(db);
    const scopes = [all, all.slice(0, 3), all.slice(4, 5)];
    for (let round = 0; round < 3; round++) for (const scope of scopes) await views(db, scope, DATE, signal);
    expect(builds).toBe(3);
  });

  it("builds a fund's views one at a time (never two half-built at once), and a wallet's beside them", async () => {
    let active = 0;
    let most = 0;
    const order: string[] = [];
    // A build that takes a few turns of the event loop, as a real one does between members.
    const slow: ViewReader = async (_d, wallets, date) => {
      active++;
      most = Math.max(most, active);
      for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
      active--;
      order.push(`${wallets.length}@${date}`);
      return { wallets: wallets.map((w) => w.address), date, positions: [], underlying: [], liquidity: [] } as never;
    };
    const views = memoisedViews(slow);
    const fund = Array.from({ length: 60 }, (_, i) => ({
      address: `0x${String(i).padStart(40, '0')}`,
      label: null,
      chains: ['eth', 'arb'],
      tags: [],
      groups: [],
    })) as never as Wallet[];
    await Promise.all([views(db, fund, '2026-10-30', signal), views(db, fund, '2026-10-31', signal), views(db, fund.slice(1), DATE, signal)]);
    expect(most).toBe(1);
    expect(order).toEqual(['60@2026-10-30', '60@2026-10-31', '59@2026-10-31']);
    // A wallet's view is not made to wait behind a fund's: it runs beside it.
    most = 0;
    await Promise.all([views(db, fund, '2026-10-29', signal), views(db, fund.slice(0, 1), '2026-10-29', signal)]);
    expect(most).toBe(2);
  });

  it("builds again after this connection's write, and the view read then is the cache's", async () => {
    const views = memoisedViews(counting);
    const before = await views(db, listWallets(db), DATE, signal);
    builds = 0;
    // One member's positions gone: it is no longer cached, and the totals drop.
    db.prepare("DELETE FROM snapshots WHERE id = (SELECT min(id) FROM snapshots WHERE endpoint = 'allPositions')").run();
    const after = await views(db, listWallets(db), DATE, signal);
    expect(builds).toBe(1);
    expect(after).not.toBe(before);
    expect(after.missing.length).toBe(before.missing.length + 1);
    expect(JSON.stringify(after)).toBe(JSON.stringify(await fresh()));
  });

  it("builds again after another connection's commit (the sync's write worker, another process)", async () => {
    const views = memoisedViews(counting);
    const before = await views(db, listWallets(db), DATE, signal);
    builds = 0;
    const other = new Database(join(dir, 'fund.sqlite'));
    other.prepare("DELETE FROM snapshots WHERE id = (SELECT min(id) FROM snapshots WHERE endpoint = 'allPositions')").run();
    other.close();
    const after = await views(db, listWallets(db), DATE, signal);
    expect(builds).toBe(1);
    expect(after.missing.length).toBe(before.missing.length + 1);
    expect(JSON.stringify(after)).toBe(JSON.stringify(await fresh()));
  });

  it('hands out a view whose build met a write, but does not keep it', async () => {
    const views = memoisedViews(counting);
    builds = 0;
    during = () => {
      during = null;
      db.prepare("DELETE FROM snapshots WHERE id = (SELECT min(id) FROM snapshots WHERE endpoint = 'allPositions')").run();
    };
    await views(db, listWallets(db), DATE, signal);
    const again = await views(db, listWallets(db), DATE, signal);
    expect(builds).toBe(2);
    expect(JSON.stringify(again)).toBe(JSON.stringify(await fresh()));
    expect(await views(db, listWallets(db), DATE, signal)).toBe(again);
    expect(builds).toBe(2);
  });

  it('keeps each connection apart: another cache file is never given this one’s view', async () => {
    const views = memoisedViews(counting);
    const otherDb = openDatabase(join(tempDir(), 'other.sqlite'));
    try {
      seedFund(otherDb, { wallets: 3, chains: 1, date: DATE });
      const mine = await views(db, listWallets(db), DATE, signal);
      const theirs = await views(otherDb, listWallets(otherDb), DATE, signal);
      expect(theirs).not.toBe(mine);
      expect(theirs.wallets.length).toBe(3);
    } finally {
      otherDb.close();
    }
  });

  it('shares a build under way between asks of the same scope and date, each with its own cancellation', async () => {
    const all = listWallets(db);
    // A build that waits for the test's word, so the asks overlap whatever the machine's speed.
    let release!: () => void;
    const gate = () => new Promise<void>((r) => (release = r));
    let started = 0;
    let stopped = 0;
    const gated: ViewReader = async (d, wallets, date, s) => {
      started++;
      await gate();
      if (s.aborted) stopped++;
      return portfolioViewUnlessAborted(d, wallets, date, s);
    };

    // Two asks at once: one build, the same view to both.
    let views = memoisedViews(gated);
    const [a, b] = [views(db, all, DATE, signal), views(db, all, DATE, signal)];
    await Promise.resolve();
    release();
    expect(await a).toBe(await b);
    expect(started).toBe(1);

    // The first caller leaves: its wait ends as cancelled, the other still gets the view.
    views = memoisedViews(gated);
    started = 0;
    const leaving = new AbortController();
    const left = views(db, all, DATE, leaving.signal);
    const staying = views(db, all, DATE, signal);
    leaving.abort();
    await expect(left).rejects.toMatchObject({ name: 'AbortError' });
    release();
    expect((await staying).members).toHaveLength(all.length * 2);
    expect([started, stopped]).toEqual([1, 0]);

    // Every caller leaves: the build is stopped; a caller after them starts a build of its own.
    views = memoisedViews(gated);
    started = 0;
    const one = new AbortController();
    const two = new AbortController();
    const asks = [views(db, all, DATE, one.signal), views(db, all, DATE, two.signal)];
    one.abort();
    two.abort();
    for (const ask of asks) await expect(ask).rejects.toMatchObject({ name: 'AbortError' });
    const firstRelease = release;
    const later = views(db, all, DATE, signal);
    firstRelease();
    await Promise.resolve();
    release();
    expect((await later).members).toHaveLength(all.length * 2);
    expect([started, stopped]).toEqual([2, 1]);
  });
});
