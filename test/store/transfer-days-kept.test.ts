import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { openDatabase, type WritableDB } from '../../src/main/core/store/db.ts';
import { inThreadWriter, type PageWriter, workerWriter } from '../../src/main/core/transactions/store/page-writer.ts';
import type { PageWrite } from '../../src/main/core/transactions/store/page-writes.ts';
import { flowsByDay, flowsDirect, refreshTransferDays, type TokenFlows } from '../../src/main/core/transactions/store/transfer-days.ts';
import type { SyncRange } from '../../src/main/core/transactions/store/transactions.ts';
import { dealingsDirect, dealingsOf, type Dealings } from '../../src/main/core/transactions/store/party-dealings.ts';
import { dealingsBetween } from '../../src/main/core/ledger/index.ts';
import { addWallet } from '../../src/main/core/store/wallets.ts';
import { removeWallet } from '../../src/main/core/wallets/remove.ts';
import type { Transaction } from '../../src/shared/service/schemas.ts';
import { createDB } from '../support/store.ts';
import { transactionRow } from '../support/transactions.ts';

/**
 * The daily transfer sums kept by the page writer (transfer-days-keeper.ts), and the dealings with
 * counterparties kept beside them (party-dealings.ts), in the worker and on this thread, against the same sums rebuilt from the stored rows (the refresh from zero)
 * and made by SQLite (flowsDirect): whatever the pages hold (failed and no-status rows,
 * unreadable quantities, values JSON cannot hold, rows updated by overlapping pages), however
 * two wallets' writers interleave, after a purge and a re-sync, after a failed page.
 */
const W1 = '0x' + '1'.repeat(40);
const W2 = '0x' + '2'.repeat(40);
const DAY = 86_400_000;
const T0 = Date.UTC(2025, 0, 1);
const PAIRS = [W1, W2].flatMap((wallet) => ['eth', 'arb'].map((chain) => ({ wallet, chain })));

const transfer = fc.record(
  {
    token_cid: fc.constantFrom('0xAA', '0xaa', '0xbb', '', null, 7),
    type: fc.constantFrom('in', 'out', null, 'swap'),
    // Numbers, null, numeric and other text; rarely a value JSON cannot hold (NaN, Infinity: stored as null).
    qty: fc.oneof(
      { weight: 8, arbitrary: fc.double({ min: 0, max: 1e6, noNaN: true }) },
      { weight: 2, arbitrary: fc.constantFrom(null, '12.5', 'abc', true) },
      { weight: 1, arbitrary: fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY) },
    ),
    // Two symbols that sort one way in UTF-16 and the other in UTF-8 (SQLite's order): U+FF21 and U+1F600.
    symbol: fc.constantFrom('AAA', 'aaa', 'B', null, '\uff21', '\u{1f600}'),
  },
  { requiredKeys: ['token_cid', 'type'] },
);
const row = fc.record({
  // A small pool of hashes per pair: pages overlap, and an overlapping row may come changed.
  n: fc.integer({ min: 0, max: 30 }),
  day: fc.integer({ min: 0, max: 15 }),
  second: fc.integer({ min: 0, max: 86_399 }),
  dated: fc.constantFrom(true, true, true, false),
  status: fc.constantFrom(1, 1, 1, 0, null),
  details: fc.array(transfer, { maxLength: 3 }),
  // The ends, for the dealings kept beside the sums (party-dealings.ts): the wallet, two others, none.
  from: fc.constantFrom('self', 'self', '0x' + 'c1'.repeat(20), '0x' + 'c2'.repeat(20), null),
  to: fc.constantFrom('self', '0x' + 'c1'.repeat(20), '0x' + 'c2'.repeat(20), '0x' + 'c2'.repeat(20), null),
});
const op = fc.oneof(
  {
    weight: 10,
    arbitrary: fc.record({ kind: fc.constant('page' as const), pair: fc.integer({ min: 0, max: 3 }), rows: fc.array(row, { minLength: 1, maxLength: 8 }) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('other' as const), pair: fc.integer({ min: 0, max: 3 }), rows: fc.array(row, { minLength: 1, maxLength: 8 }) }),
  },
  { weight: 2, arbitrary: fc.constant({ kind: 'flush' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'fail' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'purge' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'purgeNow' as const }) },
);
type Generated = typeof row extends fc.Arbitrary<infer T> ? T : never;
/** A row as the cases write it by hand too: from the wallet to a counterparty unless they say. */
type Row = Omit<Generated, 'from' | 'to'> & Partial<Pick<Generated, 'from' | 'to'>>;
/** An operation, its rows as the cases write them. */
type Op = (typeof op extends fc.Arbitrary<infer T> ? T : never) extends infer O ? (O extends { rows: unknown } ? Omit<O, 'rows'> & { rows: Row[] } : O) : never;

const txn = (wallet: string, chain: string, r: Row): Transaction =>
  transactionRow({
    wallet_id: wallet,
    txn_hash: `0x${chain === 'eth' ? 'e' : 'a'}${r.n.toString(16).padStart(63, '0')}`,
    from: r.from === undefined || r.from === 'self' ? wallet : r.from,
    to: r.to === undefined ? '0x' + 'c1'.repeat(20) : r.to === 'self' ? wallet : r.to,
    from_type: null,
    to_type: null,
    chain_id: chain,
    date: r.dated ? new Date(T0 + r.day * DAY + r.second * 1000).toISOString() : null,
    details: r.details,
    status: r.status,
  });

let pageNo = 0;
function pageOf(wallet: string, chain: string, rows: readonly Row[], state = 'in_progress'): PageWrite {
  pageNo++;
  const range = {
    wallet,
    chain,
    startTime: 0,
    endTime: 2_000_000_000,
    state,
    nextPage: pageNo + 1,
    pageSize: 8,
    startBlock: null,
    endBlock: null,
    completionRatio: null,
    rowsRead: pageNo * 8,
    updatedAt: 'now',
    reason: null,
  } as SyncRange;
  return { wallet, chain, rows: rows.map((r) => txn(wallet, chain, r)), range, close: null };
}

const norm = (rows: readonly TokenFlows[]) =>
  rows
    .map((r) => ({ ...r, inflow: Number(r.inflow.toPrecision(9)), outflow: Number(r.outflow.toPrecision(9)) }))
    .sort((a, b) => a.chain.localeCompare(b.chain) || a.cid.localeCompare(b.cid));

type DayRow = Record<string, unknown> & { inflow: number; outflow: number };
const sumsTable = (db: WritableDB) =>
  (db.prepare('SELECT * FROM transfer_days ORDER BY wallet, chain, day, token_cid').all() as DayRow[]).map((r) => ({
    ...r,
    inflow: Number(r.inflow.toPrecision(9)),
    outflow: Number(r.outflow.toPrecision(9)),
  }));

const dealingsTable = (db: WritableDB) => db.prepare('SELECT * FROM party_dealings ORDER BY wallet, chain, dir, address, cid_null, cid').all();
/** Address ranges the spam judge asks of (a lookalike bucket's, one address's), holding the counterparties, the wallets, or nothing. */
const RANGES: Array<[string, string]> = [
  ['0x', '0y'],
  ['0xc1', '0xc2'],
  ['0xc2c2', '0xc2c3'],
  [W1, W1 + '\0'],
  ['0x1', '0x3'],
  ['0xd', '0xe'],
];

/**
 * Each wallet's dealings as kept and read with the rows not kept, against the aggregate over the
 * rows alone: whole, and within each range (the judge's question, itself aside as a sender).
 */
function expectDealings(db: WritableDB): void {
  const sorted = (d: Dealings) => ({ recipients: d.recipients.map((x) => JSON.stringify(x)).sort(), senders: d.senders.map((x) => JSON.stringify(x)).sort() });
  for (const w of [W1, W2]) {
    const direct = dealingsDirect(db, w);
    expect(sorted(dealingsOf(db, w))).toEqual(sorted(direct));
    for (const [from, to] of RANGES) {
      const within = (a: string) => a >= from && a < to;
      expect(sorted(dealingsBetween(db, w, from, to)), `${w} in [${from}, ${to})`).toEqual(
        sorted({ recipients: direct.recipients.filter((r) => within(r.address)), senders: direct.senders.filter((s) => within(s.address) && s.address !== w) }),
      );
    }
  }
}

/**
 * The sums and dealings as kept, brought forward by the refresh (which reads only what the keeper
 * left), equal those rebuilt from zero, and flowsDirect's and dealingsDirect's (before the refresh
 * too, for the dealings: their reader adds the rows not kept). Returns the rows the refresh read.
 */
function expectExact(db: WritableDB): number {
  expectDealings(db);
  const read = refreshTransferDays(db, PAIRS);
  expectDealings(db);
  const kept = sumsTable(db);
  const keptDealings = dealingsTable(db);
  const states = db.prepare('SELECT * FROM transfer_days_state ORDER BY wallet, chain').all();
  db.exec('DELETE FROM transfer_days_state');
  refreshTransferDays(db, PAIRS);
  expect(kept).toEqual(sumsTable(db));
  expect(keptDealings).toEqual(dealingsTable(db));
  expectDealings(db);
  expect(db.prepare('SELECT * FROM transfer_days_state ORDER BY wallet, chain').all()).toEqual(states);
  for (const w of [W1, W2]) expect(norm(flowsByDay(db, w, ['eth', 'arb'], -1, 100_000))).toEqual(norm(flowsDirect(db, w, ['eth', 'arb'], -1, 100_000)));
  return read;
}

/** Runs the operations with `make` as the sync's writer; a second connection plays another wallet's sync. */
async function run(ops: readonly Op[], make: (db: WritableDB) => PageWriter, path: string, db: WritableDB, inThread = true): Promise<void> {
  const other = openDatabase(path);
  let writer = make(db);
  await writer.ready;
  try {
    for (const o of ops) {
      if (o.kind === 'page') {
        const { wallet, chain } = PAIRS[o.pair]!;
        await writer.write(pageOf(wallet, chain, o.rows));
      } else if (o.kind === 'flush') await writer.flush();
      else if (o.kind === 'other') {
        // Another process's sync, between two batches of this one (it waits for the write lock).
        await writer.flush();
        const w = inThreadWriter(other);
        const { wallet, chain } = PAIRS[o.pair]!;
        await w.write(pageOf(wallet, chain, o.rows));
        await w.close();
      } else if (o.kind === 'fail') {
        // A range state the schema refuses: the page fails (a worker's batch rolls back whole).
        await expect(writer.write(pageOf(W1, 'eth', [{ n: 99, day: 1, second: 0, dated: true, status: 1, details: [] }], 'bogus'))).rejects.toThrow(/CHECK/);
        await writer.close().catch(() => undefined);
        writer = make(db);
        await writer.ready;
      } else {
        // W2 is purged (its rows deleted: their ids are given again) and watched again; on this
        // thread also in the middle of the sync's open batch (a worker's batch would hold the lock).
        if (o.kind === 'purge' || !inThread) await writer.flush();
        removeWallet(db, W2, { purge: true });
        addWallet(db, { address: W2, chains: ['eth', 'arb'] });
      }
    }
    await writer.close();
  } finally {
    other.close();
  }
}

function setup() {
  const db = createDB();
  const path = db.name;
  addWallet(db, { address: W1, chains: ['eth', 'arb'] });
  addWallet(db, { address: W2, chains: ['eth', 'arb'] });
  return { db, path };
}

const BATCH = { maxRows: 20, maxMs: 600_000 };

describe('daily transfer sums kept by the page writer', () => {
  it('on this thread: equal the sums rebuilt from the stored rows, whatever the pages and however writers interleave', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 25 }), async (ops) => {
        const { db, path } = setup();
        await run(ops, (d) => inThreadWriter(d, BATCH), path, db);
        expectExact(db);
        db.close();
      }),
      { numRuns: 150 },
    );
  });

  it('in the write worker: the same', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 25 }), async (ops) => {
        const { db, path } = setup();
        await run(ops, (d) => workerWriter(d, BATCH), path, db, false);
        expectExact(db);
        db.close();
      }),
      { numRuns: 25 },
    );
  }, 120_000);

  it('are current when the writer is done: the refresh after a sync reads nothing, two wallets interleaved and other pairs between', async () => {
    for (const inThread of [true, false]) {
      const make = (d: WritableDB) => (inThread ? inThreadWriter(d, BATCH) : workerWriter(d, BATCH));
      const { db, path } = setup();
      const rows = (from: number): Row[] =>
        Array.from({ length: 10 }, (_, i) => ({
          n: from + i,
          day: i,
          second: i,
          dated: i !== 3,
          status: [1, 0, null][i % 3] as 0 | 1 | null,
          details: [
            { token_cid: '0xAA', type: 'in' as const, qty: i, symbol: 'AAA' as const },
            { token_cid: '0xaa', type: 'out' as const, qty: null },
          ],
        }));
      const ops: Op[] = [
        { kind: 'page', pair: 0, rows: rows(0) },
        { kind: 'other', pair: 2, rows: rows(0) },
        { kind: 'page', pair: 0, rows: rows(10) },
        { kind: 'page', pair: 1, rows: rows(0) },
        { kind: 'other', pair: 3, rows: rows(0) },
        { kind: 'flush' },
        { kind: 'page', pair: 0, rows: rows(20) },
      ];
      await run(ops, make, path, db, inThread);
      expect(db.prepare('SELECT count(*) FROM transfer_days_state').pluck().get()).toBe(4);
      expect(expectExact(db)).toBe(0);
      db.close();
    }
  });

  it('leave to the refresh what they cannot prove: a changed row, a value JSON cannot hold, a write they did not see', async () => {
    const { db, path } = setup();
    const r = (n: number, qty: unknown): Row => ({
      n,
      day: 1,
      second: n,
      dated: true,
      status: 1,
      details: [{ token_cid: '0xAA', type: 'in', qty: qty as number }],
    });
    // A row changed by a later page of the same batch: the trigger drops the pair's state, the keeper writes nothing for it.
    await run(
      [
        { kind: 'page', pair: 0, rows: [r(1, 1), r(2, 2)] },
        { kind: 'page', pair: 0, rows: [r(2, 5)] },
      ],
      (d) => inThreadWriter(d, BATCH),
      path,
      db,
    );
    expect(db.prepare('SELECT count(*) FROM transfer_days_state').pluck().get()).toBe(0);
    expect(expectExact(db)).toBe(2);
    // Infinity is stored as null (JSON): summed by the refresh as unreadable, never as Infinity.
    await run([{ kind: 'page', pair: 1, rows: [r(1, 1), r(2, Number.POSITIVE_INFINITY)] }], (d) => inThreadWriter(d, BATCH), path, db);
    expect(expectExact(db)).toBe(2);
    expect(db.prepare("SELECT inflow, unreadable FROM transfer_days WHERE chain = 'arb'").get()).toEqual({ inflow: 1, unreadable: 1 });
    // A row inserted in the batch's transaction behind the store's back: nothing of the batch is kept.
    const writer = inThreadWriter(db, BATCH);
    await writer.write(pageOf(W2, 'eth', [r(1, 1)]));
    db.prepare("INSERT INTO transactions (wallet, chain, txn_hash, time, status, details) VALUES (?, 'eth', '0x99', ?, 1, ?)").run(
      W2,
      T0,
      JSON.stringify([{ token_cid: '0xaa', type: 'in', qty: 40 }]),
    );
    await writer.write(pageOf(W2, 'eth', [r(2, 2)]));
    await writer.close();
    expect(db.prepare('SELECT built_to_id FROM transfer_days_state WHERE wallet = ?').pluck().get(W2)).toBe(4);
    expect(expectExact(db)).toBeGreaterThan(0);
    expect(flowsByDay(db, W2, ['eth'], 0, 100_000)[0]!.inflow).toBe(43);
  });

  it('never take a state above the largest id as current: rows given its ids again are summed', async () => {
    const { db, path } = setup();
    const r = (n: number, qty: number): Row => ({ n, day: 1, second: n, dated: true, status: 1, details: [{ token_cid: '0xAA', type: 'in', qty }] });
    await run(
      [
        { kind: 'page', pair: 0, rows: [r(1, 1)] },
        { kind: 'page', pair: 2, rows: [r(1, 2), r(2, 2)] },
      ],
      (d) => inThreadWriter(d, BATCH),
      path,
      db,
    );
    expect(db.prepare('SELECT built_to_id FROM transfer_days_state WHERE wallet = ?').pluck().get(W1)).toBe(3);
    // W2's rows deleted behind the store's back (not by removeWallet, which drops such states):
    // W1's state (3) is above the largest id (1), and the next row of W1 takes id 2.
    db.prepare('DELETE FROM transactions WHERE wallet = ?').run(W2);
    db.prepare("INSERT INTO transactions (wallet, chain, txn_hash, time, status, details) VALUES (?, 'eth', '0x99', ?, 1, ?)").run(
      W1,
      T0,
      JSON.stringify([{ token_cid: '0xaa', type: 'in', qty: 40 }]),
    );
    await run([{ kind: 'page', pair: 0, rows: [r(5, 4)] }], (d) => inThreadWriter(d, BATCH), path, db);
    expectExact(db);
    expect(flowsByDay(db, W1, ['eth'], 0, 100_000)[0]!.inflow).toBe(45);
  });

  it('roll back with the batch: a failed page in the worker leaves the sums of the committed rows only', async () => {
    const { db } = setup();
    const rows = (from: number): Row[] =>
      Array.from({ length: 5 }, (_, i) => ({ n: from + i, day: 2, second: i, dated: true, status: 1, details: [{ token_cid: '0xAA', type: 'in', qty: 1 }] }));
    const writer = workerWriter(db, { maxRows: 1_000_000, maxMs: 600_000 });
    await writer.write(pageOf(W1, 'eth', rows(0)));
    await writer.flush();
    await writer.write(pageOf(W1, 'eth', rows(5)));
    await expect(writer.write(pageOf(W1, 'eth', rows(10), 'bogus'))).rejects.toThrow(/CHECK/);
    await writer.close().catch(() => undefined);
    expect(db.prepare('SELECT count(*) FROM transactions').pluck().get()).toBe(5);
    expect(db.prepare('SELECT built_to_id FROM transfer_days_state').pluck().all()).toEqual([5]);
    expect(db.prepare('SELECT inflow, txns FROM transfer_days').all()).toEqual([{ inflow: 5, txns: 5 }]);
    expect(expectExact(db)).toBe(0);
  });
});
