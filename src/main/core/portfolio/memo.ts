/**
 * The last portfolio views built, kept while what they read is unchanged (issue 40 item 2, issue
 * 37 item 8). Overview, Positions and Risk each ask for the view of the same scope at the same
 * date, a screen reading `portfolio.rows` page by page asks again for each page, and on a team
 * server ten people ask while a sync and their own notes write: at 1,000 wallets × 6 chains a
 * view takes seconds to build (bench/RESULTS.md), so each of those was that wait again.
 *
 * A kept view is given again only while nothing it read can have changed since it was built. The
 * view is a function of the cache alone (the wallets' snapshots and transactions, the spam marks,
 * lists, address book and watched wallets its judge reads; no clock, no setting outside the
 * file), and the database itself counts every write to those, per wallet (migration 30,
 * store/inputs.ts): "unchanged" is read from SQLite, not from the core's change events, which a
 * write could miss (the sync's worker, another process). A note, an audit entry, another wallet's
 * sync leave a view kept. The mark is read before and after a build: a view during whose build
 * what it read changed is handed out but not kept. A different connection (a restore, another
 * service's cache) has its own memo.
 *
 * A view built again reuses each member's part whose inputs are unchanged (./parts.ts), so a sync
 * of one wallet costs a fund's view that wallet's parts and the sums, not every member again.
 *
 * Asks that arrive while the same view is being built (the Risk screen's lending and unlocks,
 * Overview and a page of rows at once) wait for that one build rather than starting their own.
 * Each keeps its own cancellation: one caller leaving stops only its wait, and the build stops
 * only when every caller waiting for it has left.
 *
 * Callers must not change a view they are given: it may be the one handed to the next caller.
 */
import type { Wallet } from '../../../shared/model.ts';
import type { PortfolioView } from '../../../shared/portfolio/view.ts';
import type { ReadableDB } from '../store/handles.ts';
import { inputCounts, scopeMark } from './store/inputs.ts';
import { MemberParts } from './parts.ts';
import { portfolioViewUnlessAborted } from './view.ts';

/**
 * How many views are kept per cache, and how many rows they may hold together: a screen's scope
 * and date, the others a person moves between (all wallets, a group, one wallet — three scopes
 * asked in turn thrashed a keep of two, every ask a build), the pack's two ends, and on a team server each person's
 * own (ten people each on a wallet of their own thrashed a keep of six). The newest is kept
 * whatever its size; older ones go once the rows kept pass the budget, so a fund's one
 * all-wallets view does not keep others of its size beside it, while a wallet's few rows cost
 * little to keep.
 */
const KEPT = 32;
const KEPT_ROWS = 400_000;
const rowsOf = (v: PortfolioView) => v.positions.length + v.underlying.length + v.liquidity.length;

/** The views to keep: newest first, within KEPT and KEPT_ROWS (the first always). */
function withinBudget(views: readonly Kept[]): Kept[] {
  const out: Kept[] = [];
  let rows = 0;
  for (const k of views) {
    rows += rowsOf(k.view);
    if (out.length && (out.length >= KEPT || rows > KEPT_ROWS)) break;
    out.push(k);
  }
  return out;
}

interface Kept {
  key: string;
  /** What the view read, as its scope's input counters stood (store/inputs.ts). */
  mark: string;
  wallets: readonly Wallet[];
  view: PortfolioView;
}

/** A build under way: its result, what stops it, and how many callers still wait for it. */
interface Building {
  view: Promise<PortfolioView>;
  stop: AbortController;
  waiting: number;
  /** No longer joinable (done, or stopped: a caller arriving after its last one left starts afresh). */
  gone(): void;
}

export type ViewReader = (db: ReadableDB, wallets: readonly Wallet[], date: string, signal: AbortSignal) => Promise<PortfolioView>;

/** What builds a view for the memo, given the cache's kept member parts. */
export type ViewBuilder = (
  db: ReadableDB,
  wallets: readonly Wallet[],
  date: string,
  signal: AbortSignal,
  parts: MemberParts,
  /** Called when the build read state of this connection's write not yet committed: the view is then not kept. */
  uncommitted: () => void,
) => Promise<PortfolioView>;

const withParts: ViewBuilder = (db, wallets, date, signal, parts, uncommitted) => portfolioViewUnlessAborted(db, wallets, date, signal, { parts, uncommitted });

/**
 * A view over at least this many wallet chains is built one at a time per cache. Builds share one
 * thread, so running several at once finishes none sooner, and each holds its half-built view
 * meanwhile: ten people asking ten scopes of a 1,000-wallet fund while a sync wrote held ten
 * (bench/RESULTS.md, "Team load"). A smaller view (a wallet, a small group) is cheap to hold and
 * is not made to wait behind a fund's.
 */
const ONE_AT_A_TIME_MEMBERS = 100;

/** A reader of portfolio views that keeps the last ones built per connection, and shares a build under way. */
export function memoisedViews(build: ViewBuilder = withParts): ViewReader {
  const kept = new WeakMap<ReadableDB, Kept[]>();
  const partsOf = new WeakMap<ReadableDB, MemberParts>();
  const building = new WeakMap<ReadableDB, Map<string, Building>>();
  /** The large builds of each cache, in the order asked: each starts when the one before it has ended. */
  const large = new WeakMap<ReadableDB, Promise<unknown>>();
  return async (db, wallets, date, signal) => {
    signal.throwIfAborted();
    // The scope as the view reads it: each wallet's address, label and chains, in order.
    const key = JSON.stringify([date, wallets.map((w) => [w.address, w.label, w.chains])]);
    // Read inside this connection's open write, the mark may be taken back by a rollback: no view is given or kept under it.
    const inWrite = db.inTransaction;
    const before = scopeMark(inputCounts(db), wallets);
    const all = kept.get(db) ?? [];
    const hit = inWrite ? undefined : all.find((k) => k.key === key && k.mark === before);
    if (hit) {
      // The most recently asked first: the one to keep when the budget is met.
      kept.set(db, [hit, ...all.filter((k) => k !== hit)]);
      return hit.view;
    }
    const underWay = building.get(db) ?? new Map<string, Building>();
    building.set(db, underWay);
    // A build of the same scope and date from the same state of the file is this ask's too.
    const id = `${before}|${key}`;
    let b = underWay.get(id);
    if (b) b.waiting++;
    else {
      const stop = new AbortController();
      const members = wallets.reduce((n, w) => n + w.chains.length, 0);
      let parts = partsOf.get(db);
      if (!parts) partsOf.set(db, (parts = new MemberParts()));
      let readUncommitted = inWrite;
      const start = () => build(db, wallets, date, stop.signal, parts, () => (readUncommitted = true));
      // A large build waits its turn; one whose callers all left meanwhile never starts (stop aborted).
      const turn = members >= ONE_AT_A_TIME_MEMBERS ? (large.get(db) ?? Promise.resolve()) : null;
      const built = turn
        ? turn.then(() => {
            stop.signal.throwIfAborted();
            return start();
          })
        : start();
      if (turn)
        large.set(
          db,
          built.catch(() => undefined),
        );
      const view = built.then((v) => {
        const counts = inputCounts(db);
        if (!readUncommitted && !db.inTransaction && scopeMark(counts, wallets) === before) {
          // The others still true of the file stay; one whose inputs moved is let go.
          const fresh = (kept.get(db) ?? []).filter((k) => k.key !== key && scopeMark(counts, k.wallets) === k.mark);
          kept.set(db, withinBudget([{ key, mark: before, wallets, view: v }, ...fresh]));
        }
        return v;
      });
      const gone = () => void (underWay.get(id) === b && underWay.delete(id));
      view.then(gone, gone);
      b = { view, stop, waiting: 1, gone };
      underWay.set(id, b);
    }
    return waitFor(b, signal);
  };
}

/** The build's view for one caller, or its own cancellation: the build stops when its last caller leaves. */
function waitFor(b: Building, signal: AbortSignal): Promise<PortfolioView> {
  return new Promise((resolve, reject) => {
    const leave = () => {
      if (--b.waiting === 0) {
        b.gone();
        b.stop.abort(signal.reason);
      }
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', leave, { once: true });
    b.view.then(
      (v) => {
        signal.removeEventListener('abort', leave);
        resolve(v);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', leave);
        reject(err as Error);
      },
    );
  });
}
