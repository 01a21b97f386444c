import Database from 'better-sqlite3-multiple-ciphers';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setAnnotation } from '../../src/main/core/annotations/store/annotations.ts';
import { saveCounterparty } from '../../src/main/core/counterparties/book.ts';
import { memoisedViews } from '../../src/main/core/portfolio/memo.ts';
import { portfolioView, portfolioViewUnlessAborted } from '../../src/main/core/portfolio/view.ts';
import { removeWallet as removeWithData } from '../../src/main/core/wallets/remove.ts';
import { clearSpam, importSpamList, markSpam } from '../../src/main/core/spam/verdicts.ts';
import { sharedJudge } from '../../src/main/core/spam/index.ts';
import { openDatabase, type WritableDB } from '../../src/main/core/store/db.ts';
import { listWallets, removeWallet, updateWallet } from '../../src/main/core/store/wallets.ts';
import type { Wallet } from '../../src/shared/model.ts';
import type { PortfolioView } from '../../src/shared/portfolio/view.ts';
import { rng, type Holding } from '../spam/support.ts';
import { tempDir } from '../support/store.ts';
import { BOUGHT, FAKE, hold, HOLDINGS, lay as layHoldings, layThree, PEER, swapInto, THIN, USDC, W, W2, W3 } from './kept-fixture.ts';

/**
 * Kept views and their members' parts (src/main/core/portfolio/memo.ts, parts.ts) against the
 * view built afresh: after every kind of write that changes what a view reads — a wallet's
 * transactions (what it bought), its snapshots at another date (what it ever held), a check of a
 * body sent again, the user's spam marks, a list, the address book, the watched wallets, another
 * connection's delete — the view handed out is byte for byte the one a build from nothing
 * makes, for all wallets, one wallet and a pair; and a write that changes nothing a view reads
 * (a note, another wallet's sync) leaves it kept, its untouched members' rows the same objects.
 * The spam judge is what makes this hard: a member's verdicts read its wallet's whole history.
 */
const DAY = '2026-10-01';
const signal = new AbortController().signal;

describe('kept portfolio views and their parts, against a build from nothing', () => {
  let dir: string;
  let db: WritableDB;
  let views: ReturnType<typeof memoisedViews>;
  let hashes = 0;
  const lay = (wallet: string, chain: string, day: string, holdings: Holding[], fetchedAt?: string) => layHoldings(db, wallet, chain, day, holdings, fetchedAt);
  const bought = (wallet: string, cid: string) => swapInto(db, wallet, cid, ++hashes);
  const scopes = (): Wallet[][] => {
    const all = listWallets(db);
    return [all, all.filter((w) => w.address === W), all.filter((w) => w.address !== W3)];
  };
  /** Every scope's kept view is the view built from nothing; the views returned. */
  const same = async (): Promise<[PortfolioView, PortfolioView, PortfolioView]> => {
    const out: PortfolioView[] = [];
    for (const scope of scopes()) {
      const kept = await views(db, scope, DAY, signal);
      expect(JSON.stringify(kept)).toBe(JSON.stringify(portfolioView(db, scope, DAY)));
      out.push(kept);
    }
    return out as [PortfolioView, PortfolioView, PortfolioView];
  };

  beforeEach(() => {
    dir = tempDir();
    db = openDatabase(join(dir, 'parts.sqlite'));
    layThree(db, DAY);
    views = memoisedViews();
  });
  afterEach(() => db.close());

  it('follows each write a view reads, and each one changes a figure it shows', async () => {
    const spamCount = async () => (await views(db, scopes()[1]!, DAY, signal)).spam.count;
    await same();
    // A first transaction: the wallet's history is known, so a token it never bought is spam now.
    const before = await spamCount();
    bought(W, BOUGHT);
    await same();
    expect(await spamCount()).toBeGreaterThan(before);

    // The user's marks: for one wallet, for every wallet, cleared.
    const marked = await spamCount();
    markSpam(db, { kind: 'token', chain: 'eth', target: USDC, wallet: W, verdict: 'spam' });
    await same();
    expect(await spamCount()).toBe(marked + 1);
    clearSpam(db, { kind: 'token', chain: 'eth', target: USDC, wallet: W });
    markSpam(db, { kind: 'contract', target: FAKE, verdict: 'not-spam' });
    await same();
    clearSpam(db, { kind: 'contract', target: FAKE });
    await same();
    expect(await spamCount()).toBe(marked);

    // A list that calls the fake genuine; the address book.
    importSpamList(db, JSON.stringify({ version: 1, tokens: [{ chain: 'eth', cid: THIN, verdict: 'genuine', note: 'ours' }] }), 'ours');
    await same();
    expect(await spamCount()).toBe(marked - 1);
    saveCounterparty(db, { address: PEER, name: 'Desk' });
    await same();

    // The wallet's snapshots at another date: what it ever held, which the judge reads.
    lay(W, 'eth', '2026-09-01', [hold({ cid: FAKE, symbol: 'AIRDROP', nav: 5 }), hold({ cid: '0x' + 'd1'.repeat(20), symbol: 'OLD' })]);
    await same();

    // The same body sent again later: the snapshot's check moves when it was last fetched.
    const fetched = (await views(db, scopes()[1]!, DAY, signal)).provenance[0]!.fetchedAt;
    lay(W, 'arb', DAY, [hold({ cid: '0xaf88d065e77c8cc2239327c5edb3a432268e5831', symbol: 'USDC', name: 'USD Coin' })], '2026-10-02T08:00:00.000Z');
    const [, one] = await same();
    expect(one.provenance.map((p) => p.fetchedAt)).toContain('2026-10-02T08:00:00.000Z');
    expect(fetched).not.toBe('2026-10-02T08:00:00.000Z');

    // Another connection (the sync's worker, another process) deletes a member's positions.
    const other = new Database(join(dir, 'parts.sqlite'));
    other.prepare(`DELETE FROM snapshots WHERE wallet = ? AND chain = 'arb' AND endpoint = 'allPositions'`).run(W);
    other.close();
    const [all] = await same();
    expect(all.missing.map((m) => `${m.wallet}|${m.chain}`)).toEqual([`${W}|arb`]);

    // The watched wallets: one removed, one's chains changed, one relabelled.
    removeWallet(db, W3);
    await same();
    updateWallet(db, W2, { chains: ['eth', 'arb'], label: 'Ops' });
    await same();
  });

  it('keeps a view through writes it does not read, and reuses the parts of members a write left alone', async () => {
    const [all, one] = await same();
    // A note on a transaction: nothing a view reads.
    bought(W2, BOUGHT);
    const [all2, one2] = await same();
    expect(one2).toBe(one);
    expect(all2).not.toBe(all);
    setAnnotation(db, { wallet: W2, chain: 'eth', txnHash: `0x${hashes.toString(16).padStart(64, 'b')}` }, { note: 'paid the desk' });
    const [all3, one3] = await same();
    expect(all3).toBe(all2);
    expect(one3).toBe(one);
    // Another wallet's sync at another date: this wallet's view stays kept, and the fund's view
    // built again reuses the untouched members' rows (the very objects), not theirs read again.
    lay(W2, 'eth', '2026-09-30', HOLDINGS);
    const [all4, one4] = await same();
    expect(one4).toBe(one);
    expect(all4).not.toBe(all3);
    const rowsOf = (v: PortfolioView, wallet: string) => v.positions.filter((p) => p.wallet === wallet);
    expect(rowsOf(all4, W).length).toBeGreaterThan(0);
    rowsOf(all4, W).forEach((r, i) => expect(r).toBe(rowsOf(all3, W)[i]));
    rowsOf(all4, W2).forEach((r, i) => expect(r).not.toBe(rowsOf(all3, W2)[i]));
  });

  it('gives and keeps nothing read inside a write of its own connection that is then rolled back', async () => {
    await same();
    // A sync's batch written on this thread spans turns of the event loop: a view asked meanwhile
    // reads its rows, and the batch may then be rolled back (the counters with it).
    db.exec('BEGIN IMMEDIATE');
    lay(W, 'eth', DAY, [hold({ cid: USDC, symbol: 'USDC', name: 'USD Coin', nav: 5_000_000 })], '2026-10-03T00:00:00.000Z');
    const during = await views(db, scopes()[0]!, DAY, signal);
    expect(during.totals.total).toBeGreaterThan(5_000_000);
    db.exec('ROLLBACK');
    // The same number of writes, committed, with other figures: the counters are where the rolled-back write took them.
    lay(W, 'eth', DAY, [hold({ cid: USDC, symbol: 'USDC', name: 'USD Coin', nav: 7 })], '2026-10-04T00:00:00.000Z');
    const [all] = await same();
    expect(all.totals.total).toBeLessThan(5_000_000);
  });

  it('stays the view built from nothing through a random run of writes (seeded)', async () => {
    const r = rng(4040);
    const tokens = [THIN, BOUGHT, USDC, FAKE];
    const wallets = [W, W2, W3];
    const steps: Array<() => void> = [
      () => bought(r.pick(wallets), r.pick(tokens)),
      () =>
        markSpam(db, {
          kind: 'token',
          chain: 'eth',
          target: r.pick(tokens),
          ...(r.next() < 0.5 && { wallet: r.pick(wallets) }),
          verdict: r.pick(['spam', 'not-spam'] as const),
        }),
      () => {
        for (const w of ['', ...wallets]) for (const t of tokens) clearSpam(db, { kind: 'token', chain: 'eth', target: t, ...(w && { wallet: w }) });
      },
      () =>
        lay(
          r.pick(wallets),
          'eth',
          `2026-09-${String(r.int(1, 30)).padStart(2, '0')}`,
          HOLDINGS.filter(() => r.next() < 0.6),
        ),
      () =>
        lay(
          r.pick(wallets),
          'eth',
          DAY,
          HOLDINGS.filter(() => r.next() < 0.7),
          `2026-10-0${r.int(2, 9)}T00:00:00.000Z`,
        ),
      () => importSpamList(db, JSON.stringify({ version: 1, tokens: [{ chain: 'eth', cid: r.pick(tokens), verdict: r.pick(['genuine', 'spam']) }] }), 'random'),
      () => saveCounterparty(db, { address: `0x${r.hex(40)}`, name: `Party ${r.int(1, 99)}` }),
    ];
    for (let i = 0; i < 40; i++) {
      r.pick(steps)();
      await same();
    }
  });

  it('built in turns: made again when a snapshot it listed is deleted before its turn reads it', async () => {
    const scope = listWallets(db);
    // Turns of 0 ms: the first member is made, then the others' snapshots are listed, not read.
    const building = portfolioViewUnlessAborted(db, scope, DAY, signal, { turnMs: 0 });
    removeWithData(db, W3, { purge: true });
    const view = await building;
    expect(JSON.stringify(view)).toBe(JSON.stringify(portfolioView(db, scope, DAY)));
    expect(view.members.find((m) => m.wallet === W3)?.state).toBe('not-cached');
  });

  it("with a judge shared across a pass (the pack's): the same view, and a new judge once the view is made again", async () => {
    const scope = listWallets(db);
    bought(W, BOUGHT);
    const share = sharedJudge(db, { wallets: scope.map((w) => w.address), whole: true });
    const first = share.current;
    expect(JSON.stringify(portfolioView(db, scope, DAY, share))).toBe(JSON.stringify(portfolioView(db, scope, DAY)));
    expect(share.current).toBe(first);
    // Made again: no day the judge read of the deleted snapshot is kept for the pass's next reads.
    const building = portfolioViewUnlessAborted(db, scope, DAY, signal, { turnMs: 0, share });
    removeWithData(db, W3, { purge: true });
    const view = await building;
    expect(share.current).not.toBe(first);
    expect(JSON.stringify(view)).toBe(JSON.stringify(portfolioView(db, scope, DAY)));
    expect(view.spam.count).toBeGreaterThan(0);
  });
});
