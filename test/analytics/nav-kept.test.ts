import Database from 'better-sqlite3-multiple-ciphers';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setAnnotation } from '../../src/main/core/annotations/store/annotations.ts';
import { portfolioNav, portfolioNavUnlessAborted } from '../../src/main/core/portfolio/nav.ts';
import { removeWallet as removeWithData } from '../../src/main/core/wallets/remove.ts';
import { navHistory } from '../../src/main/core/positions/index.ts';
import { spamJudge } from '../../src/main/core/spam/index.ts';
import { clearSpam, importSpamList, markSpam } from '../../src/main/core/spam/verdicts.ts';
import { openDatabase, type WritableDB } from '../../src/main/core/store/db.ts';
import { addWallet, removeWallet, updateWallet } from '../../src/main/core/store/wallets.ts';
import type { NavSeries } from '../../src/shared/model.ts';
import type { Holding } from '../spam/support.ts';
import { tempDir } from '../support/store.ts';
import { BOUGHT, hold, HOLDINGS, lay as layHoldings, swapInto, THIN, USDC, W, W2 } from './kept-fixture.ts';

/**
 * NAV over dates kept while what it read is unchanged (src/main/core/portfolio/nav.ts), against
 * the series built from nothing: after every kind of write a series reads (a wallet's
 * transactions, which the spam judge weighs; its snapshots at a date; the user's marks; a list;
 * the watched wallets; another connection's delete), the series handed out is the one a build
 * from nothing makes, for all wallets, one wallet and a group; a write it does not read (a note,
 * another wallet's snapshots) leaves it kept; nothing read inside a write of the connection's own
 * that is then rolled back is kept; and a caller cannot change the series the next one gets. Built
 * in turns of the event loop (what Overview asks for), it is the same series, lets other work in
 * between, stops on an abort, and is read again when a snapshot it was reading is deleted.
 */
const DAYS = ['2026-09-01', '2026-10-01'];

describe('kept NAV series, against a build from nothing', () => {
  let dir: string;
  let db: WritableDB;
  let hashes = 0;
  const lay = (wallet: string, chain: string, day: string, holdings: Holding[], fetchedAt?: string) => layHoldings(db, wallet, chain, day, holdings, fetchedAt);
  const bought = (wallet: string, cid: string) => swapInto(db, wallet, cid, ++hashes);
  const SCOPES = [{}, { wallet: W }, { wallets: [W2] }] as const;
  /** Every scope's kept series is the series built from nothing; the series returned. */
  const same = (): NavSeries[] =>
    SCOPES.map((scope) => {
      const kept = portfolioNav(db, scope);
      const fresh = navHistory(db, scope, spamJudge(db, { ...('wallets' in scope && { wallets: scope.wallets }) }));
      expect(JSON.stringify(kept)).toBe(JSON.stringify(fresh));
      return kept;
    });
  const spamOf = (s: NavSeries) => s.points.reduce((n, p) => n + p.spam.count, 0);

  beforeEach(() => {
    dir = tempDir();
    db = openDatabase(join(dir, 'nav.sqlite'));
    addWallet(db, { address: W, chains: ['eth', 'arb'], label: 'Treasury' });
    addWallet(db, { address: W2, chains: ['eth'] });
    for (const day of DAYS) {
      lay(W, 'eth', day, HOLDINGS);
      lay(W, 'arb', day, [hold({ cid: '0xaf88d065e77c8cc2239327c5edb3a432268e5831', symbol: 'USDC', name: 'USD Coin' })]);
      lay(W2, 'eth', day, HOLDINGS);
    }
  });
  afterEach(() => db.close());

  it('follows each write a series reads, and each one changes a figure it shows', () => {
    const [, one0] = same();
    // A first transaction: the wallet's history is known, so a token it never bought is spam now.
    bought(W, BOUGHT);
    const [, one1] = same();
    expect(spamOf(one1!)).toBeGreaterThan(spamOf(one0!));

    markSpam(db, { kind: 'token', chain: 'eth', target: USDC, wallet: W, verdict: 'spam' });
    const [, one2] = same();
    expect(one2!.points[0]!.totalNav).toBeLessThan(one1!.points[0]!.totalNav!);
    clearSpam(db, { kind: 'token', chain: 'eth', target: USDC, wallet: W });
    importSpamList(db, JSON.stringify({ version: 1, tokens: [{ chain: 'eth', cid: THIN, verdict: 'genuine', note: 'ours' }] }), 'ours');
    const [, one3] = same();
    expect(spamOf(one3!)).toBe(spamOf(one1!) - DAYS.length);

    // A new date of one wallet: a point more for it and for all wallets (partial there).
    lay(W, 'eth', '2026-11-01', [hold({ cid: USDC, symbol: 'USDC', name: 'USD Coin', nav: 9 })]);
    const [all4, one4, group4] = same();
    expect(one4!.points.map((p) => p.date)).toContain('2026-11-01');
    // A group's freshness is its members' own: W2 has nothing newer than October.
    expect(group4!.freshness.asOf).toBe('2026-10-01');
    expect(all4!.points.find((p) => p.date === '2026-11-01')!.missing.length).toBe(2);

    // Another connection (the sync's worker, another process) deletes a member's positions.
    const other = new Database(join(dir, 'nav.sqlite'));
    other.prepare(`DELETE FROM snapshots WHERE wallet = ? AND chain = 'arb' AND endpoint = 'allPositions'`).run(W);
    other.close();
    const [, one5] = same();
    expect(one5!.points[0]!.chainsCached).toBe(1);

    // The watched wallets: a chain more for one, the other removed.
    updateWallet(db, W2, { chains: ['eth', 'arb'] });
    const [all6] = same();
    expect(all6!.points[0]!.chainsWatched).toBe(4);
    removeWallet(db, W2);
    const [all7] = same();
    expect(all7!.points[0]!.chainsWatched).toBe(2);
  });

  it('keeps a series through writes it does not read', () => {
    bought(W, BOUGHT);
    const [all, one, group] = same();
    // A note on that transaction: nothing a series reads.
    setAnnotation(db, { wallet: W, chain: 'eth', txnHash: `0x${hashes.toString(16).padStart(64, 'b')}` }, { note: 'paid the desk' });
    const [all2, one2, group2] = same();
    expect([all2, one2, group2]).toEqual([all, one, group]);
    expect(all2).toBe(all);
    expect(one2).toBe(one);
    // Another wallet's snapshots: the one-wallet series stays kept, the others are built again.
    lay(W2, 'eth', '2026-11-01', HOLDINGS);
    const [all3, one3, group3] = same();
    expect(one3).toBe(one);
    expect(all3).not.toBe(all);
    expect(group3).not.toBe(group);
  });

  it('gives and keeps nothing read inside a write of its own connection that is then rolled back', () => {
    same();
    db.exec('BEGIN IMMEDIATE');
    lay(W, 'eth', DAYS[1]!, [hold({ cid: USDC, symbol: 'USDC', name: 'USD Coin', nav: 5_000_000 })], '2026-10-03T00:00:00.000Z');
    const during = portfolioNav(db, { wallet: W });
    expect(during.points[1]!.totalNav).toBeGreaterThan(5_000_000);
    db.exec('ROLLBACK');
    // The same number of writes, committed, with other figures: the counters are where the rolled-back write took them.
    lay(W, 'eth', DAYS[1]!, [hold({ cid: USDC, symbol: 'USDC', name: 'USD Coin', nav: 7 })], '2026-10-04T00:00:00.000Z');
    const [, one] = same();
    expect(one!.points[1]!.totalNav).toBeLessThan(5_000_000);
  });

  it('hands out a series no caller can change for the next', () => {
    const [all] = same();
    expect(() => (all!.points as NavSeries['points']).sort((a, b) => b.date.localeCompare(a.date))).toThrow(TypeError);
    expect(() => {
      all!.points[0]!.totalNav = 0;
    }).toThrow(TypeError);
    expect(() => all!.points[0]!.missing.push({ wallet: W, chain: 'eth' })).toThrow(TypeError);
    expect(portfolioNav(db, {})).toBe(all);
    same();
  });

  it('built in turns: the same series, other work between its turns, stopped by an abort', async () => {
    const fresh = JSON.stringify(navHistory(db, {}, spamJudge(db, {})));
    let settled = false;
    // Turns of 0 ms: a turn after each snapshot read, whatever the machine's speed.
    const building = portfolioNavUnlessAborted(db, {}, new AbortController().signal, 0).finally(() => (settled = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    expect(JSON.stringify(await building)).toBe(fresh);
    // Kept: given at once, no turn.
    expect(await portfolioNavUnlessAborted(db, {}, new AbortController().signal, 0)).toBe(await building);

    lay(W2, 'eth', '2026-11-01', HOLDINGS);
    const stop = new AbortController();
    const stopped = portfolioNavUnlessAborted(db, {}, stop.signal, 0);
    await new Promise((resolve) => setImmediate(resolve));
    stop.abort();
    await expect(stopped).rejects.toThrow(/abort/i);
    same();
  });

  it('built in turns: read again when a snapshot it was reading is deleted meanwhile', async () => {
    const building = portfolioNavUnlessAborted(db, {}, new AbortController().signal, 0);
    // One snapshot read: W2's two are not both read yet.
    removeWithData(db, W2, { purge: true });
    const series = await building;
    expect(JSON.stringify(series)).toBe(JSON.stringify(navHistory(db, {}, spamJudge(db, {}))));
    expect(series.points.every((p) => p.chainsWatched === 2 && p.missing.length === 0)).toBe(true);
  });
});
