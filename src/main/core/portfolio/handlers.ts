/**
 * The operations that read a scope's portfolio at a date: the one portfolio view (cancellable),
 * what a screen shows of it (its summary, a page of its rows),
 * and the parts of it a view asks for alone: exposure, lending risk, the unlock ladder.
 */
import { isDeepStrictEqual } from 'node:util';
import type { HandlerContext, Handlers, ScopeContext } from '../handlers.ts';
import type { WritableDB } from '../store/handles.ts';
import { navWallets } from '../positions/index.ts';
import { portfolioNavUnlessAborted } from './nav.ts';
import { portfolioChange } from './change.ts';
import { rowsPage, summaryOf } from './summary.ts';
import { memoisedViews } from './memo.ts';
import { inputCounts, scopeMark } from './store/inputs.ts';
import { answerMark, askKey, KEPT_ANSWER_CHARS, keepAnswer, keptAnswer, usedAnswer, type KeptOperation } from './store/answers.ts';

type PortfolioOperations =
  'portfolio.view' | 'portfolio.change' | 'portfolio.summary' | 'portfolio.rows' | 'nav.history' | 'exposure.get' | 'risk.lending' | 'risk.unlocks';

export interface PortfolioContext extends ScopeContext {
  /** The cache to keep answers in, or null when it is read-only. */
  writable(): WritableDB | null;
  /** The app's version: an answer kept by another version is never given. */
  version: string;
}

type ScopeWallets = ReadonlyArray<{ address: string; label?: string | null; chains: readonly string[] }>;

export function portfolioHandlers(c: PortfolioContext): Pick<Handlers, PortfolioOperations> {
  // The views of a scope at a date, kept while the cache is unchanged (memo.ts): Overview,
  // Positions and Risk of one scope and date, and each page of its rows, build it once.
  const views = memoisedViews();

  /**
   * The answer kept in the file for this ask (store/answers.ts) while what its view read is
   * unchanged, else the one built, kept for the next core that opens the file: a screen's first
   * figures after the app starts are then the ones it last showed, read, not built again
   * (seconds at a fund's scale). What the kept memory views give (memo.ts) is built here too,
   * cheaply, when the file has no answer.
   */
  async function kept<T>(op: KeptOperation, input: unknown, wallets: ScopeWallets, ctx: HandlerContext, build: () => Promise<T>): Promise<T> {
    const db = c.db();
    // Inside this connection's open write, a rollback may take the counters back (view.ts says why).
    if (db.inTransaction) return build();
    const ask = askKey(op, input, wallets);
    const mark = answerMark(c.version, scopeMark(inputCounts(db), wallets));
    const found = keptAnswer(db, ask, mark);
    const writable = c.writable();
    // Asked again in the background (warm.ts): the order of use is a person's asks alone.
    const used = !ctx.background;
    if (found) {
      let answer: T | undefined;
      try {
        answer = JSON.parse(found.answer) as T;
      } catch {
        // A damaged row (a file edited, a page lost): built again below, and kept over it.
      }
      if (answer !== undefined) {
        // A read that writes only when the order changes: on a team server most asks repeat the last one.
        if (writable && used && !found.last) ifWritable(() => usedAnswer(writable, ask));
        return answer;
      }
    }
    const answer = await build();
    // Kept only if nothing it read moved while it was built, and only if JSON gives it back as it is
    // (an answer with a value JSON changes, an infinity or an undefined, is built again each time).
    if (writable && !db.inTransaction && answerMark(c.version, scopeMark(inputCounts(db), wallets)) === mark) {
      ifWritable(() => {
        const json = JSON.stringify(answer);
        if (json.length <= KEPT_ANSWER_CHARS && isDeepStrictEqual(JSON.parse(json), answer)) keepAnswer(writable, ask, mark, { op, input }, json, used);
      });
    }
    return answer;
  }

  return {
    'portfolio.view': ({ date, wallet: address, group }, { signal }) => views(c.db(), c.scopeWallets(address, group), date, signal),
    'portfolio.change': ({ date, since, wallet: address, group, keys, tokenKeys, gone }, { signal }) =>
      portfolioChange(c.db(), c.scopeWallets(address, group), date, since, signal, views, { keys, tokenKeys, gone }),
    // A screen's part of the same view (summary.ts): built whole, as the view always is, and cut here, so only what is shown crosses the contract.
    'portfolio.summary': (input, ctx) => {
      const { signal } = ctx;
      const { date, wallet: address, group, rows, members, wallets } = input;
      const scope = c.scopeWallets(address, group);
      return kept('portfolio.summary', input, scope, ctx, async () =>
        summaryOf(await views(c.db(), scope, date, signal), { rows, members, wallets, spam: input.spam }),
      );
    },
    'portfolio.rows': (input, ctx) => {
      const { signal } = ctx;
      const { date, wallet: address, group, ...query } = input;
      const scope = c.scopeWallets(address, group);
      const page = async () => rowsPage(await views(c.db(), scope, date, signal), query);
      // The first page of a table is what a screen shows first; a later one follows the view kept in memory.
      return query.offset ? page() : kept('portfolio.rows', input, scope, ctx, page);
    },
    // In turns, cancellable (nav.ts): Overview asks for it after its totals, and leaving the screen stops it.
    'nav.history': (input, ctx) => {
      const { signal } = ctx;
      const { group, ...scope } = input;
      const members = c.scopeOf(scope.wallet, group);
      const navScope = { ...scope, ...(group !== undefined && { wallets: members ?? [] }) };
      return kept('nav.history', input, navWallets(c.db(), navScope), ctx, () => portfolioNavUnlessAborted(c.db(), navScope, signal));
    },
    // The view's own parts, from the same kept view (memo.ts) and cancellable as it is: the Risk
    // screen asks for its lending and its unlocks one after the other, and the view is built once.
    'exposure.get': (input, ctx) => {
      const { signal } = ctx;
      const scope = c.scopeWallets(undefined, input.group);
      return kept('exposure.get', input, scope, ctx, async () => (await views(c.db(), scope, input.date, signal)).exposure);
    },
    'risk.lending': (input, ctx) => {
      const { signal } = ctx;
      const scope = c.scopeWallets(input.wallet, input.group);
      return kept('risk.lending', input, scope, ctx, async () => (await views(c.db(), scope, input.date, signal)).risk);
    },
    'risk.unlocks': (input, ctx) => {
      const { signal } = ctx;
      const scope = c.scopeWallets(input.wallet, input.group);
      return kept('risk.unlocks', input, scope, ctx, async () => (await views(c.db(), scope, input.date, signal)).unlocks);
    },
  };
}

/** A kept answer is a cache: a full disk, a file locked by another writer or a read-only file keeps nothing, and the answer is given all the same. */
function ifWritable(write: () => void): void {
  try {
    write();
  } catch {
    // Built again at the next ask.
  }
}
