import Database from 'better-sqlite3-multiple-ciphers';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setAnnotation } from '../../src/main/core/annotations/store/annotations.ts';
import { saveCounterparty } from '../../src/main/core/counterparties/book.ts';
import { portfolioHandlers, type PortfolioContext } from '../../src/main/core/portfolio/handlers.ts';
import { portfolioNav } from '../../src/main/core/portfolio/nav.ts';
import { rowsPage, summaryOf } from '../../src/main/core/portfolio/summary.ts';
import { portfolioView } from '../../src/main/core/portfolio/view.ts';
import { KEPT_ANSWER_CHARS, KEPT_ANSWERS, KEPT_ANSWERS_CHARS, keepAnswer } from '../../src/main/core/portfolio/store/answers.ts';
import { answerWarmer } from '../../src/main/core/portfolio/warm.ts';
import { createCore } from '../../src/main/core/app.ts';
import { demoStarter } from '../../src/sim/demo.ts';
import { waitForJobs } from '../support/jobs.ts';
import { SIM_NOW, WALLET } from '../support/sim.ts';
import { clearSpam, importSpamList, markSpam } from '../../src/main/core/spam/verdicts.ts';
import { openDatabase, type WritableDB } from '../../src/main/core/store/db.ts';
import { addWallet, listWallets, removeWallet, updateWallet } from '../../src/main/core/store/wallets.ts';
import { removeWallet as removeWithData } from '../../src/main/core/wallets/remove.ts';
import { tempDir } from '../support/store.ts';
import { BOUGHT, FAKE, hold, HOLDINGS, lay as layHoldings, layThree, PEER, swapInto, THIN, USDC, W, W2, W3 } from './kept-fixture.ts';
import type { Holding } from '../spam/support.ts';

/**
 * The answers a screen asks of a portfolio view, kept in the file (portfolio/store/answers.ts,
 * migration 31) so a core just opened gives the figures the app last showed without building the
 * view again. Each ask here is made of a core just opened (handlers with nothing in memory) and
 * compared with the view built from nothing. To tell an answer read from the file from one built
 * again, the kept answers are overwritten with a marker before each write: after a write the
 * view reads, the marker must never come back; after one it does not read, it must.
 */
const DAY = '2026-10-01';
const signal = new AbortController().signal;
const MARKER = JSON.stringify('kept, not built');

describe('answers kept in the file, against a build from nothing', () => {
  let dir: string;
  let db: WritableDB;
  let hashes = 0;
  const lay = (wallet: string, chain: string, day: string, holdings: Holding[], fetchedAt?: string) => layHoldings(db, wallet, chain, day, holdings, fetchedAt);

  /** A core just opened over the file: handlers with no view in memory. */
  const opened = (o: { version?: string; writable?: () => WritableDB | null } = {}) => {
    const scopeOf = (address: string | undefined): string[] | undefined => (address ? [address] : undefined);
    const context = {
      db: () => db,
      scopeOf,
      scopeWallets: (address: string | undefined) => listWallets(db).filter((w) => !address || w.address === address),
      writable: o.writable ?? (() => db),
      version: o.version ?? '1.0.0',
    };
    return portfolioHandlers(context as unknown as PortfolioContext);
  };
  /** Each ask a screen makes first, and its answer from nothing (the view built afresh, cut as the handler cuts it). */
  const asks = () => {
    const all = listWallets(db);
    const one = all.filter((w) => w.address === W);
    return [
      { op: 'portfolio.summary', input: { date: DAY, rows: { limit: 1 } }, fresh: () => summaryOf(portfolioView(db, all, DAY), { rows: { limit: 1 } }) },
      { op: 'portfolio.summary', input: { date: DAY, wallet: W }, fresh: () => summaryOf(portfolioView(db, one, DAY), {}) },
      {
        op: 'portfolio.rows',
        input: { date: DAY, table: 'underlying', limit: 3 },
        fresh: () => rowsPage(portfolioView(db, all, DAY), { table: 'underlying', limit: 3 }),
      },
      { op: 'risk.lending', input: { date: DAY }, fresh: () => portfolioView(db, all, DAY).risk },
      { op: 'exposure.get', input: { date: DAY }, fresh: () => portfolioView(db, all, DAY).exposure },
      { op: 'nav.history', input: { wallet: W }, fresh: () => portfolioNav(db, { wallet: W }) },
    ] as const;
  };
  const ask = (handlers: ReturnType<typeof opened>, op: string, input: object) =>
    (handlers as unknown as Record<string, (i: object, c: { signal: AbortSignal }) => Promise<unknown>>)[op]!(input, { signal });
  /** Every ask of a core just opened is the answer from nothing. */
  const same = async () => {
    for (const a of asks()) expect(JSON.stringify(await ask(opened(), a.op, a.input)), `${a.op} ${JSON.stringify(a.input)}`).toBe(JSON.stringify(a.fresh()));
  };
  const keptCount = () => (db.prepare('SELECT count(*) AS n FROM kept_answers').get() as { n: number }).n;
  const overwrite = () => db.prepare(`UPDATE kept_answers SET answer = ?`).run(MARKER);
  /** What a core just opened answers each ask with, the marker standing for an answer read from the file. */
  const given = async (handlers = opened()) => {
    const out: unknown[] = [];
    for (const a of asks()) out.push(await ask(handlers, a.op, a.input));
    return out;
  };
  /** After a write the views read: nothing kept before it is given (the marker never), every answer the one from nothing. */
  const followed = async (write: () => void) => {
    // Kept afresh: the answers of the file as it is now.
    db.prepare('DELETE FROM kept_answers').run();
    await same();
    expect(keptCount()).toBe(asks().length);
    overwrite();
    write();
    expect((await given()).filter((x) => x === JSON.parse(MARKER))).toEqual([]);
    await same();
  };

  beforeEach(() => {
    dir = tempDir();
    db = openDatabase(join(dir, 'answers.sqlite'));
    layThree(db, DAY);
  });
  afterEach(() => db.close());

  it('gives the kept answer to a core just opened while nothing it read is written, and never after a write it read', async () => {
    swapInto(db, W2, BOUGHT, ++hashes);
    const noted = `0x${hashes.toString(16).padStart(64, 'b')}`;
    await same();
    expect(keptCount()).toBe(asks().length);
    // Read from the file, not built: the marker comes back for every ask.
    overwrite();
    expect(await given()).toEqual(asks().map(() => JSON.parse(MARKER)));

    // A write no view reads: a note. Still given from the file.
    setAnnotation(db, { wallet: W2, chain: 'eth', txnHash: noted }, { note: 'paid the desk' });
    expect(await given()).toEqual(asks().map(() => JSON.parse(MARKER)));

    // Each write a view reads: a transaction (what the wallet bought), marks, a list, the address
    // book, snapshots at another date, a body sent again, another connection's delete, the watched wallets.
    await followed(() => swapInto(db, W, BOUGHT, ++hashes));
    await followed(() => markSpam(db, { kind: 'token', chain: 'eth', target: USDC, wallet: W, verdict: 'spam' }));
    await followed(() => clearSpam(db, { kind: 'token', chain: 'eth', target: USDC, wallet: W }));
    await followed(() => importSpamList(db, JSON.stringify({ version: 1, tokens: [{ chain: 'eth', cid: THIN, verdict: 'genuine', note: 'ours' }] }), 'ours'));
    await followed(() => saveCounterparty(db, { address: PEER, name: 'Desk' }));
    await followed(() => lay(W, 'eth', '2026-09-01', [hold({ cid: FAKE, symbol: 'AIRDROP', nav: 5 }), hold({ cid: '0x' + 'd1'.repeat(20), symbol: 'OLD' })]));
    await followed(() =>
      lay(W, 'arb', DAY, [hold({ cid: '0xaf88d065e77c8cc2239327c5edb3a432268e5831', symbol: 'USDC', name: 'USD Coin' })], '2026-10-02T08:00:00.000Z'),
    );
    await followed(() => {
      const other = new Database(join(dir, 'answers.sqlite'));
      other.prepare(`DELETE FROM snapshots WHERE wallet = ? AND chain = 'arb' AND endpoint = 'allPositions'`).run(W);
      other.close();
    });
    await followed(() => updateWallet(db, W2, { chains: ['eth', 'arb'] }));
    // A relabelled wallet is another ask (labels are in the answers, not counted): never the old label.
    await followed(() => updateWallet(db, W, { label: 'Ops' }));
    await followed(() => removeWallet(db, W3));
  });

  it('never gives an answer kept by another version of the app', async () => {
    await same();
    overwrite();
    expect((await given(opened({ version: '1.0.1' }))).filter((x) => x === JSON.parse(MARKER))).toEqual([]);
  });

  it('keeps nothing in a read-only cache, and answers all the same when the file refuses the write', async () => {
    await given(opened({ writable: () => null }));
    expect(keptCount()).toBe(0);
    // A file that cannot be written (a full disk, a read-only file): the answer is given, nothing is kept.
    const readOnly = new Database(join(dir, 'answers.sqlite'), { readonly: true }) as unknown as WritableDB;
    try {
      const answers = await given(opened({ writable: () => readOnly }));
      expect(answers.map((x) => JSON.stringify(x))).toEqual(asks().map((a) => JSON.stringify(a.fresh())));
    } finally {
      readOnly.close();
    }
    expect(keptCount()).toBe(0);
  });

  it('drops every kept answer when a wallet or a snapshot leaves the file (their figures go with them)', async () => {
    await same();
    expect(keptCount()).toBeGreaterThan(0);
    removeWithData(db, W3, { purge: true });
    expect(keptCount()).toBe(0);
    await same();
    db.prepare(`DELETE FROM snapshots WHERE wallet = ? AND chain = 'arb'`).run(W);
    expect(keptCount()).toBe(0);
  });

  it('keeps the most recently used answers, within KEPT_ANSWERS', async () => {
    const handlers = opened();
    const first = { date: DAY, rows: { limit: 1 } };
    await ask(handlers, 'portfolio.summary', first);
    for (let i = 2; i <= KEPT_ANSWERS + 5; i++) {
      await ask(handlers, 'portfolio.summary', { date: DAY, rows: { limit: i } });
      // The first asked again each time: the most recently used, it is never the one to go.
      await ask(handlers, 'portfolio.summary', first);
    }
    expect(keptCount()).toBe(KEPT_ANSWERS);
    overwrite();
    expect(await ask(opened(), 'portfolio.summary', first)).toBe(JSON.parse(MARKER));
    // The oldest of the others went.
    expect(await ask(opened(), 'portfolio.summary', { date: DAY, rows: { limit: 2 } })).not.toBe(JSON.parse(MARKER));
  });

  it('answers at once while another writer holds the file, keeping nothing (never waits for the lock)', async () => {
    // A wait would be this long for each of the asks: past the test's own time limit, so a wait fails it.
    db.pragma('busy_timeout = 20000');
    const other = new Database(join(dir, 'answers.sqlite'));
    other.exec('BEGIN IMMEDIATE');
    try {
      const answers = await given();
      expect(answers.map((x) => JSON.stringify(x))).toEqual(asks().map((a) => JSON.stringify(a.fresh())));
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    expect(keptCount()).toBe(0);
    expect(db.pragma('busy_timeout', { simple: true })).toBe(20000);
    // Kept once the file is free, and a hit that moves the order is not waited for either.
    await given();
    expect(keptCount()).toBe(asks().length);
  });

  it('builds again, and keeps over it, an answer the file holds damaged', async () => {
    await same();
    db.prepare(`UPDATE kept_answers SET answer = '{"truncated'`).run();
    await same();
    const rows = db.prepare('SELECT answer FROM kept_answers').all() as Array<{ answer: string }>;
    expect(rows.every((r) => JSON.parse(r.answer) !== undefined)).toBe(true);
  });

  it('keeps no answer over KEPT_ANSWER_CHARS, and no more than KEPT_ANSWERS_CHARS together, the oldest going first', () => {
    const big = (c: string) => JSON.stringify(c.repeat(KEPT_ANSWER_CHARS - 2));
    keepAnswer(db, 'too big', 'm', { op: 'portfolio.rows', input: {} }, JSON.stringify('x'.repeat(KEPT_ANSWER_CHARS)));
    expect(keptCount()).toBe(0);
    const fit = Math.floor(KEPT_ANSWERS_CHARS / KEPT_ANSWER_CHARS);
    for (let i = 0; i <= fit; i++) keepAnswer(db, `ask ${i}`, 'm', { op: 'portfolio.rows', input: {} }, big(String(i % 10)));
    const asks = (db.prepare('SELECT ask FROM kept_answers ORDER BY used_at').all() as Array<{ ask: string }>).map((r) => r.ask);
    expect(asks).toEqual(Array.from({ length: fit }, (_, i) => `ask ${i + 1}`));
  });
});

describe("the screens' last answers asked again after a sync (portfolio/warm.ts)", () => {
  let dir: string;
  let db: WritableDB;
  beforeEach(() => {
    dir = tempDir();
    db = openDatabase(join(dir, 'warm.sqlite'));
    addWallet(db, { address: W, chains: ['eth'], label: 'Treasury' });
    addWallet(db, { address: W2, chains: ['eth'] });
    layHoldings(db, W, 'eth', DAY, HOLDINGS);
    layHoldings(db, W2, 'eth', DAY, HOLDINGS.slice(1));
  });
  afterEach(() => db.close());

  const handlers = () =>
    portfolioHandlers({
      db: () => db,
      scopeOf: (a: string | undefined) => (a ? [a] : undefined),
      scopeWallets: (a: string | undefined) => listWallets(db).filter((w) => !a || w.address === a),
      writable: () => db,
      version: '1.0.0',
    } as unknown as PortfolioContext);
  const call = (op: string, input: object, background = false) =>
    (handlers() as unknown as Record<string, (i: object, c: { signal: AbortSignal; background: boolean }) => Promise<unknown>>)[op]!(input, {
      signal,
      background,
    });

  it('asks the last requests again, most recent first, so a core opened next reads them kept; nothing while syncs run; its asks move no request up', async () => {
    const requests: Array<[string, object]> = [
      ['portfolio.summary', { date: DAY }],
      ['portfolio.rows', { date: DAY, table: 'positions', limit: 5 }],
      ['nav.history', { wallet: W }],
    ];
    for (const [op, input] of requests) await call(op, input);
    // A sync of one wallet: every answer over it is stale.
    swapInto(db, W, BOUGHT, 1);
    const asked: string[] = [];
    const ask = async (op: string, input: unknown) => {
      asked.push(op);
      return call(op, input as object, true);
    };
    let busy = true;
    const warmer = answerWarmer({ db: () => db, ask, busy: () => busy });
    await warmer.now();
    expect(asked).toEqual([]);
    busy = false;
    await warmer.now();
    expect(asked).toEqual(['nav.history', 'portfolio.rows', 'portfolio.summary']);
    // The person's order stands after a round (the warmer's own asks move nothing up): the next
    // round, after the next sync, asks in the same order, the screen looked at last first.
    swapInto(db, W, BOUGHT, 2);
    await warmer.now();
    expect(asked).toEqual(['nav.history', 'portfolio.rows', 'portfolio.summary', 'nav.history', 'portfolio.rows', 'portfolio.summary']);
    // Kept under the file's present counters: a core opened now reads each from the file (the marker), builds none.
    db.prepare('UPDATE kept_answers SET answer = ?').run(MARKER);
    for (const [op, input] of requests) expect(await call(op, input)).toBe(JSON.parse(MARKER));
    warmer.stop();
    await warmer.now();
    expect(asked).toHaveLength(6);
  });

  it('is set off by a finished sync job in a core that stays open: the answer in the file is built again with no screen asking', async () => {
    const data = tempDir();
    const core = await createCore({ dataDir: data, shell: 'web', baseUrl: null, scheduleEveryMs: 0, demo: demoStarter({ now: () => SIM_NOW, latencyMs: 5 }) });
    try {
      await core.call('wallets.add', { address: WALLET, chains: ['eth'] });
      const first = await core.call('sync.positions', { wallet: WALLET, date: '2025-06-01' });
      await waitForJobs(core, [first]);
      await core.call('portfolio.summary', { date: '2025-06-01', wallet: WALLET });
      const file = new Database(join(data, 'demo.sqlite'), { readonly: true });
      try {
        const kept = () => file.prepare('SELECT mark FROM kept_answers').all() as Array<{ mark: string }>;
        const [before] = kept();
        expect(before).toBeDefined();
        // Another date's positions: the wallet's counter moves, the answer kept is stale until asked again.
        const second = await core.call('sync.positions', { wallet: WALLET, date: '2025-06-02' });
        await waitForJobs(core, [second]);
        await vi.waitFor(() => expect(kept().map((r) => r.mark)).not.toEqual([before!.mark]), { timeout: 30_000, interval: 100 });
        expect(kept()).toHaveLength(1);
      } finally {
        file.close();
      }
    } finally {
      await core.close();
    }
  });
});
