/**
 * Each member's part of a portfolio view (a wallet on a chain at a date), kept between builds
 * (issue 37 item 8, issue 40 item 2). At a fund's scale most of a view's build is per member:
 * reading and parsing its three snapshots, judging its positions for spam, making its rows. A
 * write that changes one wallet (a sync filing its positions, a transaction of its own) left the
 * other 999 wallets' parts as they were, yet every view of every scope was built whole again.
 *
 * A part is given again only under the same mark: its wallet's and the shared input counters
 * (store/inputs.ts, counted by the database's own triggers) and the ids of the snapshots it was
 * made from. The counters are read before the part's inputs, so a part is never older than its
 * mark (a write meanwhile makes it newer, and its mark stale: built again at the next ask).
 *
 * Parts are kept within a budget of rows, the least recently used going first. A part's rows are
 * the same objects the views built from it hold, so parts and kept views share their memory.
 */
import type { MemberCoverage, PortfolioProvenance, PortfolioView } from '../../../shared/portfolio/view.ts';
import type { AllocationKey, LiquidityRow, PositionRow, UnderlyingRow } from '../../../shared/portfolio/rows.ts';
import type { NavSums } from '../../../shared/portfolio/totals.ts';
import type { ExactSum } from '../../../shared/decimal.ts';
import type { TokenPart } from '../../../shared/portfolio/tokens.ts';

export interface MemberPart {
  /** Its coverage, but for the wallet's label (the scope's, as asked) and the nearest dates (./view.ts reads those when needed). */
  coverage: Omit<MemberCoverage, 'label' | 'nearestBefore' | 'nearestAfter'>;
  /** Where a member not fully cached at the date is cached instead, once read. */
  nearest?: { before: string | null; after: string | null };
  provenance: PortfolioProvenance[];
  /** The genuine positions as the service listed them, and each one's known value. */
  genuine: PositionRow[];
  values: number[];
  /** The genuine positions' principal and reward, summed exactly (the view's totals add these up). */
  navs: NavSums;
  /** Their values summed exactly by asset type, protocol and chain (the view's allocation adds these up). */
  allocation: Record<AllocationKey, Map<string, ExactSum>>;
  spam: PortfolioView['spam']['rows'];
  /** Its by-token and liquidity rows, spam left out. */
  underlying: UnderlyingRow[];
  /** Its by-token rows grouped by token, summed exactly (the view's token rows join these). */
  tokens: TokenPart;
  liquidity: LiquidityRow[];
}

/** At a fund's scale one date's parts are ~300,000 rows (1,000 wallets × 6 chains): two dates kept. */
const KEPT_ROWS = 700_000;

const rowsOf = (p: MemberPart) => 1 + p.genuine.length + p.spam.length + p.underlying.length + p.liquidity.length;

export class MemberParts {
  readonly #kept = new Map<string, { mark: string; part: MemberPart; rows: number }>();
  #rows = 0;

  constructor(private readonly budget = KEPT_ROWS) {}

  /** The part kept under `key` if its mark is `mark`; a stale one is let go. */
  get(key: string, mark: string): MemberPart | undefined {
    const k = this.#kept.get(key);
    if (!k) return undefined;
    this.#kept.delete(key);
    if (k.mark !== mark) {
      this.#rows -= k.rows;
      return undefined;
    }
    // Back in as the most recently used.
    this.#kept.set(key, k);
    return k.part;
  }

  set(key: string, mark: string, part: MemberPart): void {
    const old = this.#kept.get(key);
    if (old) {
      this.#kept.delete(key);
      this.#rows -= old.rows;
    }
    const rows = rowsOf(part);
    this.#kept.set(key, { mark, part, rows });
    this.#rows += rows;
    for (const [k, v] of this.#kept) {
      if (this.#rows <= this.budget || k === key) break;
      this.#kept.delete(k);
      this.#rows -= v.rows;
    }
  }

  get size(): number {
    return this.#kept.size;
  }
}
