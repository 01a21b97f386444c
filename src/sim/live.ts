/**
 * Live modes: the reference service behaving as a live indexer does, so the client can be
 * tested against a history that changes while it reads and between its syncs (issue 30,
 * "correct over time"). Each mode is selectable (`sim --live arrivals,late,reorg,burst`, or
 * `live` in process) and deterministic: what happens is a pure function of the seed and of
 * how many transaction requests the (wallet, chain) has received, so a test knows exactly
 * which rows should be there (`truth`).
 *
 * - arrivals: the newest `arrivals.count` transactions are not indexed at first; `perRequest`
 *   of them appear after each transactions request, at the newest end, while the client pages.
 * - late: `late.rows` transactions a little behind the newest end (a gap the indexer backfills)
 *   are missing until `late.at` requests have been answered, then appear inside a range already read.
 * - reorg: once `reorg.at` requests have been answered, six transactions near the newest end are restated:
 *   one removed, one replaced (another hash, the next block), one moved to another block, one
 *   failed (status 0, no transfers), one with another fee, one with other transfer amounts.
 * - burst: `burst.groups` runs of `burst.size` transactions share one second; rows of one
 *   second come in another order on every request, so offset paging across them is unstable.
 * - wide-burst: one run of `wideBurst.size` transactions (default 1,200: more than the largest
 *   page the service serves, 1,000) shares one second, in another order on every request, so no
 *   single read of that second, however narrow its window, pages it whole. With
 *   `wideBurst.order: 'page'` the order follows the page and page size asked instead, as an SQL
 *   LIMIT/OFFSET over rows whose sort key ties does: reading again at one page size sees the
 *   same pages every time.
 * - gap: `gap.rows` transactions `gap.from` of the way into the history (far behind the newest
 *   end, deeper than any recent window) are not indexed until `gap.at` requests have been
 *   answered (default: until `settle`), and while they are not, a request whose range covers any
 *   of their seconds states a completion_ratio below 1 (the share of the range's seconds outside
 *   the gap): an indexer that knows it has a hole in the middle and backfills it later.
 * - today: the latest snapshot moves while the client reads its three views (positions, by
 *   token, liquidity: three requests). Position requests for today's date are counted per
 *   (wallet, chain), and the snapshot changes after request `today.at` and then after every
 *   `today.every` more: a position closes (`change: 'row'`, its last one is gone: 8 rows in
 *   one view, 7 in another), or one position's quantity moves (`change: 'qty'`), and back.
 *   `todayServed` says which state each request was answered from (the ground truth).
 *
 * The live service states completion_ratio 1 throughout but for `gap`: an indexer does not know
 * what it has not indexed yet (a service that did would be the `incomplete` fault, faults.ts).
 */

import type { Transaction } from '../shared/service/wire.ts';
import { blockAt, type ChainInfo } from './chains.ts';
import type { SimPosition } from './positions.ts';
import { hexOf, Rng, round } from './random.ts';
import { historyOf, type HistoryConfig, historySource, type TxnSource, type WalletHistory } from './transactions.ts';

export const LIVE_MODES = ['arrivals', 'late', 'reorg', 'burst', 'wide-burst', 'today', 'gap'] as const;
export type LiveMode = (typeof LIVE_MODES)[number];

export interface LiveOptions {
  modes: readonly LiveMode[];
  arrivals?: { count?: number; perRequest?: number };
  late?: { rows?: number; at?: number; behind?: number };
  reorg?: { at?: number; behind?: number };
  burst?: { groups?: number; size?: number };
  /** `order`: a new order on every request (default), or one that follows the page and page size asked (an SQL LIMIT/OFFSET over rows whose sort key ties). */
  wideBurst?: { size?: number; order?: 'request' | 'page' };
  today?: { at?: number; every?: number; change?: 'row' | 'qty' };
  gap?: { rows?: number; from?: number; at?: number };
}

export function parseLiveModes(spec: string): LiveMode[] {
  const modes = spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const m of modes) if (!(LIVE_MODES as readonly string[]).includes(m)) throw new Error(`unknown live mode '${m}'; modes: ${LIVE_MODES.join(', ')}`);
  if (!modes.length) throw new Error(`--live takes one or more of ${LIVE_MODES.join(', ')}, comma-separated`);
  return [...new Set(modes)] as LiveMode[];
}

/** What the reorg did to one transaction (for tests to check the client's change log). */
export interface Restatement {
  hash: string;
  kind: 'removed' | 'replaced' | 'block' | 'status' | 'fee' | 'transfers';
  /** The replacement's hash (kind `replaced`). */
  replacement?: string;
}

interface Tuned {
  arrivals: { count: number; perRequest: number };
  late: { rows: number; at: number; behind: number };
  reorg: { at: number; behind: number };
  burst: { groups: number; size: number };
  wideBurst: { size: number; order: 'request' | 'page' };
  today: { at: number; every: number; change: 'row' | 'qty' };
  gap: { rows: number; from: number; at: number };
}

/** One (wallet, chain) as a live indexer holds it. */
class LiveWallet {
  readonly rows: Transaction[];
  readonly times: number[];
  /** Index where the arriving transactions start (n when no arrivals). */
  readonly arrivalFrom: number;
  readonly lateFrom: number;
  readonly lateTo: number;
  /** Mode `gap`: the rows [gapFrom, gapTo) not indexed until it is filled. */
  readonly gapFrom: number;
  readonly gapTo: number;
  gapIndexed = false;
  readonly restated = new Map<number, { kind: Restatement['kind']; row: Transaction | null }>();
  requests = 0;
  arrived = 0;
  lateIndexed = false;
  reorged = false;

  constructor(
    readonly h: WalletHistory,
    source: TxnSource,
    private readonly modes: ReadonlySet<LiveMode>,
    private readonly t: Tuned,
  ) {
    // The rows of the world the indexer serves (with spam woven in when the world has it), oldest first.
    const n = source.count;
    this.rows = [];
    this.times = [];
    for (let i = 0; i < n; i++) {
      this.rows.push(source.at(i));
      this.times.push(source.timeAt(i));
    }
    if (modes.has('burst')) {
      // Runs spread evenly over the history (never the newest rows, where the other modes act).
      const { groups, size } = t.burst;
      for (let g = 1; g <= groups; g++) {
        const first = Math.floor((g * (n - 2 * size)) / (groups + 1));
        const time = this.times[first]!;
        for (let i = first; i < Math.min(n, first + size); i++) {
          this.times[i] = time;
          this.rows[i] = { ...this.rows[i]!, date: isoSecond(time), block: blockAt(h.chain, time) };
        }
      }
    }
    if (modes.has('wide-burst')) {
      // One run a quarter of the way into what is left, clear of the newest rows where the other modes act.
      const size = Math.min(n, t.wideBurst.size);
      const first = Math.max(0, Math.floor((n - size) / 4));
      const time = this.times[first]!;
      for (let i = first; i < first + size; i++) {
        this.times[i] = time;
        this.rows[i] = { ...this.rows[i]!, date: isoSecond(time), block: blockAt(h.chain, time) };
      }
    }
    this.arrivalFrom = modes.has('arrivals') ? Math.max(0, n - t.arrivals.count) : n;
    this.lateTo = Math.max(0, this.arrivalFrom - t.late.behind);
    this.lateFrom = Math.max(0, this.lateTo - t.late.rows);
    this.gapFrom = Math.floor(n * t.gap.from);
    this.gapTo = Math.min(n, this.gapFrom + t.gap.rows);
  }

  /** A transactions request arrives: the indexer's state as it answers it. */
  tick(): void {
    this.requests++;
    if (this.modes.has('late') && this.requests > this.t.late.at) this.lateIndexed = true;
    if (this.modes.has('gap') && this.requests > this.t.gap.at) this.gapIndexed = true;
    if (this.modes.has('reorg') && this.requests > this.t.reorg.at) this.reorg();
  }

  /** After the answer: the next transactions arrive. */
  afterAnswer(): void {
    if (this.modes.has('arrivals')) this.arrived = Math.min(this.rows.length - this.arrivalFrom, this.arrived + this.t.arrivals.perRequest);
  }

  settle(): void {
    if (this.modes.has('arrivals')) this.arrived = this.rows.length - this.arrivalFrom;
    if (this.modes.has('late')) this.lateIndexed = true;
    if (this.modes.has('gap')) this.gapIndexed = true;
    if (this.modes.has('reorg')) this.reorg();
  }

  private reorg(): void {
    if (this.reorged) return;
    this.reorged = true;
    const top = this.arrivalFrom - this.t.reorg.behind;
    const kinds: Restatement['kind'][] = ['removed', 'replaced', 'block', 'status', 'fee', 'transfers'];
    kinds.forEach((kind, k) => {
      const i = top - 1 - 4 * k;
      if (i < 0 || (this.modes.has('late') && i >= this.lateFrom && i < this.lateTo)) return;
      const row = this.rows[i]!;
      const seed = this.h.config.seed;
      let next: Transaction | null;
      switch (kind) {
        case 'removed':
          next = null;
          break;
        case 'replaced':
          next = { ...row, txn_hash: '0x' + hexOf(64, seed, 'reorg', this.h.wallet, this.h.chain.id, i), block: row.block + 1 };
          break;
        case 'block':
          next = { ...row, block: row.block + 2 };
          break;
        case 'status':
          next = { ...row, status: 0, details: [] };
          break;
        case 'fee':
          next = { ...row, txn_fee: Math.round(row.txn_fee * 1.5e9) / 1e9, gas_fee: Math.round(row.gas_fee * 1.5e6) / 1e6 };
          break;
        case 'transfers':
          next = { ...row, details: row.details.map((d) => ({ ...d, qty: Math.round(d.qty * 0.5e6) / 1e6 })) };
          if (!row.details.length) next = { ...row, details: [{ token_cid: '0x' + hexOf(40, seed, 'reorg-token', i), type: 'in', qty: 1, symbol: 'USDC' }] };
          break;
      }
      this.restated.set(i, { kind, row: next });
    });
  }

  private visible(i: number): boolean {
    if (i >= this.arrivalFrom + this.arrived) return false;
    if (!this.lateIndexed && this.modes.has('late') && i >= this.lateFrom && i < this.lateTo) return false;
    if (!this.gapIndexed && this.modes.has('gap') && i >= this.gapFrom && i < this.gapTo) return false;
    return true;
  }

  /** The completion_ratio of [startS, endS] as indexed now: below 1 while it covers seconds of an unfilled gap. */
  ratio(startS: number, endS: number): number {
    if (!this.modes.has('gap') || this.gapIndexed || this.gapTo <= this.gapFrom) return 1;
    const lo = Math.max(startS, this.times[this.gapFrom]!);
    const hi = Math.min(endS, this.times[this.gapTo - 1]!);
    if (hi < lo) return 1;
    // Never rounded up to 1 (the server states four decimals): a hole of one second is still a hole.
    return Math.min(0.9999, 1 - (hi - lo + 1) / Math.max(1, endS - startS + 1));
  }

  private rowAt(i: number): Transaction | null {
    const r = this.restated.get(i);
    return r ? r.row : this.rows[i]!;
  }

  /** The rows with startS ≤ time ≤ endS as indexed now, newest first; rows of one second shuffled by `order` when given. */
  list(startS: number, endS: number, order: Rng | null): Transaction[] {
    const out: Array<{ row: Transaction; time: number }> = [];
    for (let i = this.rows.length - 1; i >= 0; i--) {
      const time = this.times[i]!;
      if (time < startS) break;
      if (time > endS || !this.visible(i)) continue;
      const row = this.rowAt(i);
      if (row) out.push({ row, time });
    }
    if (order) {
      // Fisher–Yates within each run of one second: another order on every request.
      for (let a = 0; a < out.length;) {
        let b = a + 1;
        while (b < out.length && out[b]!.time === out[a]!.time) b++;
        for (let k = b - 1; k > a; k--) {
          const j = a + Math.floor(order.float() * (k - a + 1));
          [out[k], out[j]] = [out[j]!, out[k]!];
        }
        a = b;
      }
    }
    return out.map((x) => x.row);
  }

  restatements(): Restatement[] {
    return [...this.restated.entries()].map(([i, r]) => ({
      hash: this.rows[i]!.txn_hash,
      kind: r.kind,
      ...(r.kind === 'replaced' && r.row ? { replacement: r.row.txn_hash } : {}),
    }));
  }
}

export class LiveService {
  private readonly wallets = new Map<string, LiveWallet>();
  /** Mode `today`: per (wallet, chain), the state each request for today's positions was answered from. */
  private readonly served = new Map<string, number[]>();
  private readonly modes: ReadonlySet<LiveMode>;
  private readonly tuned: Tuned;

  constructor(
    private readonly history: HistoryConfig,
    options: LiveOptions,
    /** The rows of a (wallet, chain) in time order: the generated history unless the world adds to it (spam.ts). */
    private readonly sourceOf: (h: WalletHistory) => TxnSource = historySource,
  ) {
    this.modes = new Set(options.modes);
    this.tuned = {
      arrivals: { count: 40, perRequest: 2, ...options.arrivals },
      late: { rows: 30, at: 13, behind: 35, ...options.late },
      reorg: { at: 13, behind: 10, ...options.reorg },
      burst: { groups: 3, size: 40, ...options.burst },
      wideBurst: { size: 1200, order: 'request', ...options.wideBurst },
      today: { at: 2, every: 5, change: 'row', ...options.today },
      gap: { rows: 160, from: 0.4, at: Number.POSITIVE_INFINITY, ...options.gap },
    };
  }

  get enabled(): readonly LiveMode[] {
    return [...this.modes];
  }

  private of(wallet: string, chain: ChainInfo): LiveWallet {
    const key = `${wallet.toLowerCase()}|${chain.id}`;
    let w = this.wallets.get(key);
    if (!w) {
      const h = historyOf(this.history, wallet, chain);
      w = new LiveWallet(h, this.sourceOf(h), this.modes, this.tuned);
      this.wallets.set(key, w);
    }
    return w;
  }

  /** One transactions request: the rows of [startS, endS] as indexed when it arrives (newest first), then the indexer moves on. */
  answer(
    wallet: string,
    chain: ChainInfo,
    startS: number,
    endS: number,
    requestNo: number,
    page: { offsetOf: (count: number) => number; pageSize: number },
  ): Transaction[] {
    const w = this.of(wallet, chain);
    w.tick();
    const shuffled = this.modes.has('burst') || this.modes.has('wide-burst');
    let order: Rng | null = null;
    if (shuffled && this.tuned.wideBurst.order === 'page') {
      // The rows' offset and the page size (what an SQL query is asked), so a page past the end that repeats the last one repeats it exactly.
      const count = w.list(startS, endS, null).length;
      order = new Rng(this.history.seed, 'burst-order', 'page', page.offsetOf(count), page.pageSize);
    } else if (shuffled) order = new Rng(this.history.seed, 'burst-order', requestNo);
    const rows = w.list(startS, endS, order);
    w.afterAnswer();
    return rows;
  }

  /** The completion_ratio a request for [startS, endS] is answered with (after its `answer`). */
  ratio(wallet: string, chain: ChainInfo, startS: number, endS: number): number {
    return this.of(wallet, chain).ratio(startS, endS);
  }

  /** Every pending event happens now (all arrivals in, the gap indexed, the reorg applied). */
  settle(wallet: string, chain: ChainInfo): void {
    this.of(wallet, chain).settle();
  }

  /** The history as the service holds it now, newest first (in a stable order): what a correct cache holds. */
  truth(wallet: string, chain: ChainInfo): Transaction[] {
    return this.of(wallet, chain).list(0, Number.MAX_SAFE_INTEGER, null);
  }

  restatements(wallet: string, chain: ChainInfo): Restatement[] {
    return this.of(wallet, chain).restatements();
  }

  /**
   * Mode `today`: one request for today's positions of a (wallet, chain) (any of the three
   * views): the snapshot as it stands when the request arrives. Other modes: as given.
   */
  positionsToday(wallet: string, chain: ChainInfo, positions: SimPosition[]): SimPosition[] {
    if (!this.modes.has('today')) return positions;
    const key = `${wallet.toLowerCase()}|${chain.id}`;
    const served = this.served.get(key) ?? [];
    this.served.set(key, served);
    const state = todayState(served.length + 1, this.tuned.today);
    served.push(state);
    return state === 0 ? positions : movedToday(positions, this.tuned.today.change);
  }

  /** Mode `today`: the state (0 as generated, 1 moved) each request for today's positions of a (wallet, chain) was answered from, in order. */
  todayServed(wallet: string, chain: ChainInfo): number[] {
    return [...(this.served.get(`${wallet.toLowerCase()}|${chain.id}`) ?? [])];
  }

  /** Mode `today`: today's positions in a state (0 as generated, 1 moved), for tests to compare a stored snapshot with. */
  todayIn(positions: SimPosition[], state: number): SimPosition[] {
    return state === 0 ? positions : movedToday(positions, this.tuned.today.change);
  }

  /** Transactions requests this (wallet, chain) has received. */
  requests(wallet: string, chain: ChainInfo): number {
    return this.of(wallet, chain).requests;
  }
}

/** The state of today's snapshot for the n-th request (1-based): it moves after request `at`, then after every `every` more. */
function todayState(n: number, t: { at: number; every: number }): number {
  if (n <= t.at) return 0;
  return Math.floor((n - t.at - 1) / Math.max(1, t.every) + 1) % 2;
}

/** Today's positions moved: the last one closed (`row`), or the first one's first leg grown by a tenth (`qty`). */
function movedToday(positions: SimPosition[], change: 'row' | 'qty'): SimPosition[] {
  if (!positions.length) return positions;
  if (change === 'row') return positions.slice(0, -1);
  const [first, ...rest] = positions;
  const [leg, ...legs] = first!.legs;
  if (!leg) return positions;
  const grown = { ...leg, qty: round(leg.qty * 1.1, 6), nav: round(leg.nav * 1.1, 2) };
  const principalQty = first!.legs.length === 1 ? grown.qty : first!.principalQty;
  return [{ ...first!, legs: [grown, ...legs], principalQty }, ...rest];
}

function isoSecond(t: number): string {
  return new Date(t * 1000).toISOString().replace('.000Z', 'Z');
}
