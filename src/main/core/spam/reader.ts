/**
 * The spam judge of one read (docs/spam.md, "For the readers"): built once per read with
 * `spamJudge(db)`, then cheap per row. What every row needs is read up front (the user's verdicts,
 * the lists, the address book and the watched wallets: small); what only some rows need is read on
 * the first row that needs it and kept for the rest of the read:
 *
 * - a day's by-underlying and liquidity views of a (wallet, chain): for a position of that day;
 * - the tokens a (wallet, chain) ever held (one aggregate over that chain's position snapshots):
 *   for a token a transaction moved, or when two contracts share a symbol on a day;
 * - what a wallet got by its own hand (one aggregate over the transactions it sent): for a token it
 *   never held, or a held one already suspect (was it bought, or did it arrive by itself);
 * - its dealings with the addresses of one lookalike bucket (the same first and last 4 hex
 *   digits; two index ranges): whether an end of a transaction is a known counterparty, or imitates
 *   one. A wallet's counterparties are never read whole: a timeline page of a whale of 200,000
 *   transactions reads the buckets of the addresses on it.
 *
 * So a day's positions of a thousand wallets read their snapshots of the day, and no history
 * unless a token is suspect.
 */
import type { LookalikeHit, PoisoningHit, SpamMark, SpamVerdict } from '../../../shared/spam.ts';
import type { SnapshotDataByEndpoint } from '../../../shared/model.ts';
import { listCounterparties } from '../counterparties/index.ts';
import { acquiredTokens, dealingsBetween, dealingsOf, firstAppearances, hasHistory, keptStates, type Dealings } from '../ledger/index.ts';
import { heldTokens, latestSnapshot, positionsFreshness, type HeldToken } from '../positions/index.ts';
import { addressKey } from '../store/address-key.ts';
import type { ReadableDB } from '../store/handles.ts';
import { listWallets } from '../store/wallets.ts';
import {
  decide,
  isOutflow,
  judgeProtocolPosition,
  judgeToken,
  judgeTransaction,
  key,
  knownParties,
  lookalikeBucket,
  NO_MARKET_SLIPPAGE,
  poisoningGuard,
  withNeverAcquired,
  type Counterparties,
  type PartyEvidence,
  type RuleResult,
  type Ruling,
  type SpamTxnRow,
  type TokenFacts,
} from './judge.ts';
import { defaultList, DEFAULT_LIST_NAME, ListBook, type SpamList } from './lists.ts';
import { isNativeCid } from './natives.ts';
import { listStoredSpamLists } from './store/lists.ts';
import { listSpamMarks } from './store/verdicts.ts';
import { comparable } from './text.ts';

/**
 * A position as a reader holds it: the all_positions view's, as the service sends it
 * (src/shared/service/wire.ts) or as the cache keeps it (schemas.ts, where an unreadable value is null).
 */
export interface JudgedPosition {
  asset_type?: string | null;
  protocol_id?: string | null;
  cid?: string | null;
  name?: string | null;
  symbol?: string | null;
  principal_nav?: number | null;
  underlying?: ReadonlyArray<{ internal_id?: string | null; name?: string | null; symbol?: string | null; nav?: number | null }> | null;
}

export interface SpamJudge {
  /** A position of the all_positions view, judged with the wallet's by-underlying and liquidity views of that day when cached. */
  position(wallet: string, chain: string, day: string, p: JudgedPosition): SpamVerdict;
  /** Every position of a day's all_positions view, in its order (the same as `position` one by one). */
  positions(wallet: string, chain: string, day: string, ps: readonly JudgedPosition[]): SpamVerdict[];
  /**
   * A token by its contract (a reconciliation's row, an exposure, a transfer): with that day's
   * views when `day` is given and they hold it, else as of the last day the wallet held it, else by
   * the wallet's history alone.
   */
  token(wallet: string, chain: string, t: { cid: string | null; symbol?: string | null; name?: string | null }, day?: string): SpamVerdict;
  /**
   * A cached transaction row (the timeline's, the rules', the period's): its verdict, the poisoning
   * guard's finding (an outflow to a lookalike) and, for what it brought in, the end that imitates a
   * known counterparty.
   */
  transaction(row: SpamTxnRow): TxnJudgement;
  /** The poisoning guard alone: an outflow to a lookalike of a known counterparty. */
  poisoning(row: SpamTxnRow): PoisoningHit | null;
  /**
   * Why an address is a counterparty of the wallet whatever it did, in words: the address book
   * names it, it is a watched wallet, the user calls it not spam (for this wallet or every wallet),
   * a list calls it genuine; null when none does.
   */
  vouched(wallet: string, chain: string, address: string): string | null;
  /** What the read could not know of a wallet (no positions cached, no transactions), one line each. */
  notes(wallet: string): string[];
  /**
   * A day's by-underlying and liquidity views (null: not cached), as its caller has already read
   * them from the cache (the portfolio view reads every member's): the judge takes them rather
   * than reading and parsing them again. They must be the newest fetch at that day, as the judge
   * would read it; a day it has already read is kept as read.
   */
  knowDay(
    wallet: string,
    chain: string,
    day: string,
    views: {
      underlying: ReadonlyArray<SnapshotDataByEndpoint['positionsByUnderlying']> | null;
      liquidity: ReadonlyArray<SnapshotDataByEndpoint['liquidityAnalysis']> | null;
    },
  ): void;
  /**
   * Forgets what it read of these wallets' positions (their held tokens, their days, and every
   * verdict and counterparty they went into), for a judge kept across reads when those positions
   * changed and nothing else did: the next ask of such a wallet reads them again. Another wallet's
   * part never reads them (portfolio/kept-judge.ts says what else must not have moved).
   */
  forgetPositionsOf(wallets: Iterable<string>): void;
}

/** A transaction's verdict, the poisoning guard's finding and the end that imitates a known counterparty. */
export type TxnJudgement = SpamVerdict & { poisoning: PoisoningHit | null; lookalike: LookalikeHit | null };

export interface SpamJudgeOptions {
  /** The wallets the read covers (a hint: a wallet's data is read on its first row either way). */
  wallets?: readonly string[];
  /**
   * The read goes through whole histories (an export, the pack, the poisoning guard): each wallet's
   * dealings are read in one pass, not a range of addresses at a time as a page's few rows need.
   */
  whole?: boolean;
  /**
   * The read asks each wallet chain's day once, one after another (NAV over dates): a day's views
   * are kept only until the next day is asked. Kept all, a series over a fund's dates held every
   * member's every day at once (~330 MiB at 1,000 × 6: bench/RESULTS.md); the verdicts are the same.
   */
  dayByDay?: boolean;
}

/** Buckets of one wallet read one by one before its dealings are read whole (a timeline page names fewer). */
const WHOLE_AFTER_BUCKETS = 32;

/** Worth less than this (USD, at the service's value of the token) is dust. */
export const DUST_USD = 1;
/** With no price known, a quantity below this is dust (a poisoner sends a fraction of a unit, 1 wei up). */
export const DUST_QTY = 0.0001;

interface Day {
  /** The day's tokens from the by-underlying view, by token id; empty when it is not cached. */
  byId: Map<string, TokenFacts>;
  facts: TokenFacts[];
  /** The liquidity view, by position (protocol, cid): each token's symbol and slippage; null when not cached. */
  liquidity: Map<string, ReadonlyArray<{ symbol: string | null; slippage: number | null }>> | null;
  /** Whether the day's tokens know what the wallet acquired (read once a token is suspect, or has a twin). */
  enriched: boolean;
  /** The day's contracts by comparable symbol: a token with a twin here is told apart by what the wallet acquired. */
  cidsBySymbol: Map<string, Set<string>>;
}

const cidOf = (c: string | null | undefined) => key(c);
/** The token contract in a service's internal id such as `eth:0x…`, where the by-underlying view is not cached to say it. */
const cidInId = (id: string | null | undefined) => {
  const m = /(?:^|:)(0x[0-9a-fA-F]{40})$/.exec(id ?? '');
  return m ? m[1]!.toLowerCase() : '';
};
const posKey = (protocol: string | null | undefined, cid: string | null | undefined) => `${protocol ?? ''}|${key(cid)}`;
const tokenKey = (chain: string, cid: string) => `${chain}|${cid}`;

const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** Shapes of rows whose verdicts one read keeps (a few thousand in a real history; each a short string and a shared verdict). */
const SHAPES_KEPT = 100_000;
/** A string in a shape: length-prefixed, so no symbol a spammer writes can make one row's shape read as another's. */
const part = (v: unknown): string => (typeof v === 'string' ? `${v.length}:${v}` : '~');
/**
 * What the judge reads of a row, as one string: the ends, the method, the status, and each transfer's
 * token, direction, symbol and quantity as the rules use it (absent, zero, negative, dust received,
 * more). Its hash, fees and protocol are not read by the rules (the guard's finding takes the hash
 * after). Finer than the rules (the raw text, not `key`'s form) is safe: it only splits shapes.
 */
function shapeOf(row: SpamTxnRow, wallet: string, dust: (wallet: string, chain: string, cid: string, qty: number) => boolean): string {
  let s = `${part(wallet)}${part(row.chain)}${part(row.from)}${part(row.to)}${part(row.methodHex)}${typeof row.status === 'number' ? String(row.status) : '~'}|`;
  const details = Array.isArray(row.details) ? row.details : [];
  for (const d of details) {
    if (d === null || typeof d !== 'object') {
      s += '!';
      continue;
    }
    const q = amount(d.qty);
    const type = text(d.type);
    const size = q === null ? 'n' : q === 0 ? 'z' : q < 0 ? 'm' : type === 'in' && dust(wallet, row.chain, key(text(d.token_cid)), q) ? 'd' : 'p';
    s += `${part(d.token_cid)}${part(type)}${part(d.symbol)}${size}`;
  }
  return s;
}
const amount = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
/**
 * A row as the rules read it: a cached row keeps what the service sent, and a member of the wrong
 * type (a number for a symbol, text for a quantity) is read as absent, never trusted or thrown on.
 */
function readable(row: SpamTxnRow): SpamTxnRow {
  return {
    ...row,
    from: text(row.from),
    to: text(row.to),
    methodHex: text(row.methodHex),
    protocolId: text(row.protocolId),
    status: amount(row.status),
    details: (Array.isArray(row.details) ? row.details : [])
      .filter((d) => d !== null && typeof d === 'object')
      .map((d) => ({ token_cid: text(d.token_cid), type: text(d.type), qty: amount(d.qty), symbol: text(d.symbol) })),
  };
}

/**
 * One judge for the reads of one pass (the pack's two ends, its reconciliation and its
 * transactions): each (wallet, chain, day) and each token's history is read once for all of them,
 * not once per read. A read that finds a snapshot gone under it (a view made again: store/steps.ts)
 * renews it, so no day read from that snapshot is kept for the reads after.
 */
export interface SharedJudge {
  current: SpamJudge;
  renew(): void;
}

export function sharedJudge(db: ReadableDB, opts: SpamJudgeOptions = {}): SharedJudge {
  const share: SharedJudge = {
    current: spamJudge(db, opts),
    renew: () => {
      share.current = spamJudge(db, opts);
    },
  };
  return share;
}

export function spamJudge(db: ReadableDB, opts: SpamJudgeOptions = {}): SpamJudge {
  const whole = opts.whole ?? false;
  const marks = listSpamMarks(db);
  const lists = new ListBook([
    ...listStoredSpamLists(db).map((s) => ({ name: s.name, list: JSON.parse(s.list) as SpamList })),
    { name: DEFAULT_LIST_NAME, list: defaultList() },
  ]);
  const markOf = new Map<string, SpamMark>();
  for (const m of marks) markOf.set(`${m.kind}|${m.chain ?? ''}|${m.target}|${m.wallet ?? ''}`, m);
  // Known to every wallet: the address book, the watched wallets, what a list calls genuine (the
  // user's own records); to a wallet also what the user calls not spam for it (`vouchedFor`).
  const book = listCounterparties(db);
  const watched = listWallets(db);
  const records = [...book.map((c) => c.address), ...watched.map((w) => w.address), ...lists.genuineAddresses()];

  // --- the user's verdicts ---------------------------------------------------------------------
  const userRuling = (m: SpamMark, what: string): Ruling => ({
    spam: m.verdict === 'spam',
    code: m.verdict === 'spam' ? 'user.spam' : 'user.not-spam',
    text: `You marked ${what} ${m.verdict === 'spam' ? 'spam' : 'not spam'} for ${m.wallet ? 'this wallet' : 'every wallet'}${m.note ? `: ${m.note}` : '.'}`,
    // What was marked: a token on its chain, a contract, an address (the mark's kind); for whom.
    values: { kind: m.kind, target: m.target, chain: m.chain, scope: m.wallet ? 'wallet' : 'all', note: m.note || null },
  });
  /** The user's verdict on a token: this wallet's before every wallet's, the token on its chain before its contract everywhere. */
  const tokenMark = (wallet: string, chain: string, cid: string): { ruling: Ruling; level: number } | null => {
    // Most books mark nothing: every position of a fund's view asks this several times.
    if (!cid || !markOf.size) return null;
    const order: Array<[string, string, number]> = [
      [`token|${chain}|${cid}|${wallet}`, `the token ${cid} on ${chain}`, 0],
      [`contract||${cid}|${wallet}`, `the contract ${cid}`, 0],
      [`token|${chain}|${cid}|`, `the token ${cid} on ${chain}`, 1],
      [`contract||${cid}|`, `the contract ${cid}`, 1],
    ];
    for (const [k, what, level] of order) {
      const m = markOf.get(k);
      if (m) return { ruling: userRuling(m, what), level };
    }
    return null;
  };
  const addressMark = (wallet: string, address: string): { ruling: Ruling; level: number } | null => {
    const m = markOf.get(`address||${address}|${wallet}`) ?? markOf.get(`address||${address}|`);
    return m ? { ruling: userRuling(m, `the address ${address}`), level: m.wallet ? 0 : 1 } : null;
  };
  const genuineToken = (wallet: string, chain: string, cid: string) => lists.genuineToken(chain, cid) || tokenMark(wallet, chain, cid)?.ruling.spam === false;
  const tokenVerdict = (wallet: string, chain: string, facts: TokenFacts, rules: RuleResult): SpamVerdict =>
    decide(rules, facts.cid ? lists.token(chain, facts.cid, facts.symbol, facts.name) : null, tokenMark(wallet, chain, facts.cid)?.ruling ?? null);

  // --- a wallet's history, each part read on first need -----------------------------------------
  const memo = <T>(load: (k: string) => T) => {
    const kept = new Map<string, T>();
    return Object.assign(
      (k: string): T => {
        if (!kept.has(k)) kept.set(k, load(k));
        return kept.get(k)!;
      },
      { kept },
    );
  };
  /** The tokens a (wallet, chain) ever held, by contract. */
  const heldOn = memo((walletChain) => {
    const [wallet, chain] = walletChain.split('\n') as [string, string];
    return new Map<string, HeldToken>(heldTokens(db, wallet, chain).map((t) => [cidOf(t.cid), t]));
  });
  const heldOf = (wallet: string, chain: string) => heldOn(`${wallet}\n${chain}`);
  /** A wallet's dealings whole (a read through whole histories), with what it acquired, from one pass. */
  const dealingsWhole = memo((wallet) => dealingsOf(db, wallet));
  /** Which of a wallet's dealings are kept: asked once, for every lookalike bucket read of it. */
  const statesOf = memo((wallet) => keptStates(db, wallet));
  /** What the wallet got by its own hand, by (chain, contract), with its symbol (in a whole read, from the same pass as its dealings). */
  const acquiredOf = memo(
    (wallet) => new Map((whole ? dealingsWhole(wallet).acquired : acquiredTokens(db, wallet)).map((a) => [tokenKey(a.chain, cidOf(a.cid)), a])),
  );
  const historyCached = memo((wallet) => hasHistory(db, wallet));

  /** The wallet's tokens on a chain as its history knows them (held any day, or got by its own hand): a token's peers, when it was never held. */
  const historyPeers = memo((walletChain) => {
    const [wallet, chain] = walletChain.split('\n') as [string, string];
    const held = heldOf(wallet, chain);
    const acquired = acquiredOf(wallet);
    const out = new Map<string, TokenFacts>();
    const add = (cid: string, symbol: string | null, name: string | null) => {
      if (out.has(cid)) return;
      const h = held.get(cid);
      out.set(cid, {
        chain,
        cid,
        symbol,
        name,
        valued: false,
        market: null,
        genuine: genuineToken(wallet, chain, cid),
        acquired: acquired.has(tokenKey(chain, cid)),
        seen: h !== undefined,
        firstHeld: h?.first ?? null,
      });
    };
    for (const t of held.values()) add(cidOf(t.cid), t.symbol, t.name);
    for (const a of acquired.values()) if (a.chain === chain) add(cidOf(a.cid), a.symbol, null);
    return [...out.values()];
  });

  // --- a day's views, read on first need ----------------------------------------------------
  const days = new Map<string, Day>();
  const dayOf = (wallet: string, chain: string, day: string): Day => {
    const k = `${wallet}|${chain}|${day}`;
    const d = days.get(k);
    if (d) return d;
    const liq = latestSnapshot(db, 'liquidityAnalysis', wallet, chain, day);
    const under = latestSnapshot(db, 'positionsByUnderlying', wallet, chain, day);
    return dayFrom(k, wallet, chain, under?.data ?? null, liq?.data ?? null);
  };
  /** A day's facts from its by-underlying and liquidity views (each null when not cached), kept for the day's other asks. */
  const dayFrom = (
    k: string,
    wallet: string,
    chain: string,
    underData: ReadonlyArray<SnapshotDataByEndpoint['positionsByUnderlying']> | null,
    liqData: ReadonlyArray<SnapshotDataByEndpoint['liquidityAnalysis']> | null,
  ): Day => {
    const liquidity = liqData
      ? new Map(
          liqData.flatMap((s) =>
            s.positions.map(
              (p) => [posKey(p.protocol_id, p.cid), (p.underlying ?? []).map((u) => ({ symbol: u.symbol, slippage: u.details.slippage ?? null }))] as const,
            ),
          ),
        )
      : null;
    const byId = new Map<string, TokenFacts>();
    const facts: TokenFacts[] = [];
    for (const s of underData ?? [])
      for (const g of s.positions) {
        const cid = cidOf(g.token_cid);
        const f: TokenFacts = {
          chain,
          cid,
          symbol: g.token_symbol,
          name: g.token_name,
          valued: (g.total_nav ?? 0) > 0,
          market: liquidity ? marketOf(liquidity, g.token_symbol, g.breakdown ?? []) : null,
          genuine: genuineToken(wallet, chain, cid),
          acquired: false,
          seen: true,
          firstHeld: null,
        };
        byId.set(g.token_id, f);
        facts.push(f);
      }
    // Two contracts of one symbol that day: which was held first is evidence, so the held history is read.
    const cidsBySymbol = new Map<string, Set<string>>();
    for (const f of facts) {
      const symbol = comparable(f.symbol);
      if (symbol) (cidsBySymbol.get(symbol) ?? cidsBySymbol.set(symbol, new Set()).get(symbol)!).add(f.cid);
    }
    if ([...cidsBySymbol.values()].some((cids) => cids.size > 1)) {
      const held = heldOf(wallet, chain);
      for (const f of facts) f.firstHeld = held.get(f.cid)?.first ?? null;
    }
    const d: Day = { byId, facts, liquidity, enriched: false, cidsBySymbol };
    if (opts.dayByDay) days.clear();
    days.set(k, d);
    return d;
  };

  /**
   * A token of a day judged by the token rules. One already suspect is judged again with what the
   * wallet acquired by its own hand (its history read once), and, never acquired, counts that too.
   */
  const judgeOnDay = (wallet: string, d: Day, f: TokenFacts): RuleResult => {
    const history = historyCached(wallet);
    const enrich = () => {
      if (d.enriched) return;
      const acquired = acquiredOf(wallet);
      for (const x of d.facts) x.acquired = acquired.has(tokenKey(x.chain, x.cid));
      d.enriched = true;
    };
    // What the wallet acquired tells tokens of one symbol apart (judge.ts imitated), and nothing
    // else of a token's first judgment: one with a twin on its day is judged knowing it from the
    // start, so its verdict never hangs on whether a suspect of the same day, judged before it
    // (on another screen, or earlier in an export), had the day's acquisitions read.
    const twins = d.cidsBySymbol.get(comparable(f.symbol));
    if (history && twins && (twins.size > 1 || !twins.has(f.cid))) enrich();
    const first = judgeToken(f, d.facts);
    if (first.score <= 0 || !history) return first;
    enrich();
    const facts = { ...f, acquired: acquiredOf(wallet).has(tokenKey(f.chain, f.cid)) };
    const again = judgeToken(facts, d.facts);
    return facts.acquired ? again : withNeverAcquired(again, f.symbol);
  };

  /** A token a transaction moved: as of the last day the wallet held it when it did (its market then), else by its history. */
  const txnTokens = new Map<string, { facts: TokenFacts; rules: RuleResult }>();
  const historyToken = (wallet: string, chain: string, cid: string, symbol: string | null, name: string | null = null) => {
    // The name too: a token never held is judged by what it is asked with, and a row names none (a
    // name's link judged once under no name was lost to every later ask, and the other way round).
    // (A service's symbol or name may hold any character: both are quoted, so no two asks share a key.)
    const k = `${wallet}|${chain}|${cid}|${JSON.stringify([symbol, name])}`;
    let t = txnTokens.get(k);
    if (t) return t;
    const held = heldOf(wallet, chain).get(cid);
    const d = held ? dayOf(wallet, chain, held.last) : null;
    const onDay = d?.facts.find((x) => x.cid === cid);
    if (d && onDay) {
      // Held: established whatever it cost; what the wallet got by hand is read only if it is suspect.
      const facts = { ...onDay, firstHeld: held!.first };
      t = { facts, rules: judgeOnDay(wallet, d, facts) };
    } else {
      const facts: TokenFacts = {
        chain,
        cid,
        symbol: symbol ?? held?.symbol ?? null,
        name: name ?? held?.name ?? null,
        valued: false,
        market: null,
        genuine: genuineToken(wallet, chain, cid),
        acquired: acquiredOf(wallet).has(tokenKey(chain, cid)),
        seen: held !== undefined,
        firstHeld: held?.first ?? null,
      };
      t = { facts, rules: judgeToken(facts, historyPeers(`${wallet}\n${chain}`)) };
    }
    txnTokens.set(k, t);
    return t;
  };
  const established = (t: TokenFacts) => isNativeCid(t.chain, t.cid) || t.genuine || t.seen || t.acquired;

  const dust = (wallet: string, chain: string, cid: string, qty: number) => {
    const price = heldOf(wallet, chain).get(cid)?.price ?? null;
    return price !== null && price > 0 ? qty * price < DUST_USD : qty < DUST_QTY;
  };

  const recordSet = new Set(records.map(key));
  /** The addresses the user calls not spam for a wallet (its own verdict first, then every wallet's), not already records. */
  const vouchedFor = memo((wallet) => {
    const out = new Set<string>();
    for (const m of marks)
      if (
        m.kind === 'address' &&
        (m.wallet === null || m.wallet === wallet) &&
        addressMark(wallet, m.target)?.ruling.spam === false &&
        !recordSet.has(m.target)
      )
        out.add(m.target);
    return out;
  });
  /**
   * A wallet's anchors by lookalike bucket: each with where it stands when it never appeared in the
   * cache: a record before all (the book names whom the wallet deals with, before any dealing); a
   * vouch after all (it says the address is genuine, never that another one is not).
   */
  const bucketsOf = (addresses: Iterable<string>, never: number) => {
    const byBucket = new Map<string, Array<{ address: string; never: number }>>();
    for (const address of addresses) {
      const b = lookalikeBucket(address);
      if (b) (byBucket.get(b) ?? byBucket.set(b, []).get(b)!).push({ address: key(address), never });
    }
    return byBucket;
  };
  // The records are every wallet's anchors: bucketed once, not again for each wallet a page names
  // (a fund's book holds its 1,000 wallets; a timeline page of 500 rows took seconds doing so).
  let recordBuckets: ReturnType<typeof bucketsOf> | null = null;
  const vouchBucketsOf = memo((wallet) => bucketsOf(vouchedFor(wallet), Infinity));
  const anchorsIn = (wallet: string, bucket: string) => {
    recordBuckets ??= bucketsOf(recordSet, -Infinity);
    return [...(recordBuckets.get(bucket) ?? []), ...(vouchBucketsOf(wallet).get(bucket) ?? [])];
  };
  const isAnchor = (wallet: string, a: string) => recordSet.has(a) || vouchedFor(wallet).has(a);
  /**
   * The wallet's known counterparties: the anchors (records and vouches), every address it paid, and every address that
   * paid it a real amount of a token it genuinely has (not dust, not a token judged spam): spam's
   * senders never become known, so their lookalikes still show. Decided bucket by bucket (a
   * lookalike shares its bucket with what it imitates, so a bucket is decided by itself alone),
   * each read when a row first names an address in it.
   */
  const evidenceIn = (wallet: string, from: string, to: string, keep: (address: string) => boolean): PartyEvidence[] =>
    evidenceOf(wallet, dealingsBetween(db, wallet, from, to, statesOf(wallet)), keep);
  const evidenceOf = (wallet: string, { recipients, senders }: Dealings, keep: (address: string) => boolean): PartyEvidence[] => {
    const evidence: PartyEvidence[] = recipients.filter((r) => keep(r.address)).map((r) => ({ address: r.address, first: r.first }));
    for (const s of senders) {
      if (!keep(s.address)) continue;
      const cid = cidOf(s.cid);
      const t = historyToken(wallet, s.chain, cid, s.symbol);
      if (!established(t.facts) || tokenVerdict(wallet, s.chain, t.facts, t.rules).spam) continue;
      if (typeof s.maxQty !== 'number' || dust(wallet, s.chain, cid, s.maxQty)) continue;
      evidence.push({ address: s.address, first: s.first });
    }
    return evidence;
  };
  /**
   * A wallet's dealings whole, by bucket: read in one pass once a read has asked for more buckets
   * of it than a page shows (an export, a pack: every row of a long history), where a query per
   * bucket would cost a range scan per counterparty. A bucket's senders are judged when the bucket
   * is asked (bucketParties), not all at once: the guard asks the buckets of the addresses paid,
   * a few of a wallet's hundreds, and each sender's token judged reads a day's views.
   */
  const wholeDealings = memo((wallet) => {
    const byBucket = new Map<string, Dealings>();
    const of = (address: string) => {
      const b = lookalikeBucket(address);
      return b ? (byBucket.get(b) ?? byBucket.set(b, { recipients: [], senders: [] }).get(b)!) : null;
    };
    const { recipients, senders } = dealingsWhole(wallet);
    for (const r of recipients) of(r.address)?.recipients.push(r);
    for (const s of senders) of(s.address)?.senders.push(s);
    return byBucket;
  });
  const bucketReads = new Map<string, number>();
  const bucketParties = memo((walletBucket) => {
    const [wallet, bucket] = walletBucket.split('\n') as [string, string];
    const reads = (bucketReads.get(wallet) ?? 0) + 1;
    bucketReads.set(wallet, reads);
    let evidence: PartyEvidence[];
    if (whole || reads > WHOLE_AFTER_BUCKETS) {
      const dealt = wholeDealings(wallet).get(bucket);
      evidence = dealt ? evidenceOf(wallet, dealt, () => true) : [];
    } else {
      const prefix = `0x${bucket.slice(0, 4)}`;
      const suffix = bucket.slice(4);
      const next = prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
      evidence = evidenceIn(wallet, prefix, next, (a) => a.endsWith(suffix));
    }
    const anchors = anchorsIn(wallet, bucket);
    // One address alone in its bucket imitates nothing, and anchors alone are all known: no order to find.
    const here = new Set([...anchors.map((a) => a.address), ...evidence.map((e) => key(e.address))]);
    if (here.size < 2 || !evidence.length)
      return knownParties(
        anchors.map((a) => a.address),
        evidence,
      ).parties;
    // Several: taken in the order they first appeared in the cache (in any watched wallet's history),
    // so an address the user vouches for never makes one dealt with before it a lookalike of it.
    const seen = firstAppearances(db, [...here]);
    return knownParties(
      anchors.map((a) => ({ address: a.address, first: seen.get(a.address) ?? a.never })),
      evidence.map((e) => ({ address: e.address, first: seen.get(key(e.address)) ?? e.first })),
    ).parties;
  });
  /** Whether a wallet dealt genuinely with an address that is not an EVM one (no lookalikes: its own dealings alone). */
  const knownExactly = memo((walletAddress) => {
    const [wallet, address] = walletAddress.split('\n') as [string, string];
    return evidenceIn(wallet, address, `${address}\u0000`, (a) => a === address).length > 0;
  });
  const partiesOf = (wallet: string): Counterparties => ({
    has: (address) => {
      const a = key(address);
      if (!a) return false;
      if (isAnchor(wallet, a)) return true;
      const b = lookalikeBucket(a);
      return b ? bucketParties(`${wallet}\n${b}`).has(a) : knownExactly(`${wallet}\n${a}`);
    },
    lookalikeOf: (address) => {
      const a = key(address);
      const b = lookalikeBucket(a);
      return b && !isAnchor(wallet, a) ? bucketParties(`${wallet}\n${b}`).lookalikeOf(a) : null;
    },
  });

  const position = (walletIn: string, chain: string, day: string, p: JudgedPosition): SpamVerdict => {
    const wallet = addressKey(walletIn);
    const d = dayOf(wallet, chain, day);
    const under = p.underlying ?? [];
    const holding = (p.asset_type === 'wallet' || p.protocol_id === 'wallet') && under.length === 1;
    if (!holding) {
      const cid = cidOf(p.cid);
      const slippages = d.liquidity?.get(posKey(p.protocol_id, p.cid));
      const rules = judgeProtocolPosition({ chain, cid, symbol: p.symbol ?? null, name: p.name ?? null, slippages: slippages?.map((u) => u.slippage) ?? null });
      // By its contract only: a list's symbol patterns are for tokens (a pool may well be named "Claimable rewards").
      return decide(rules, cid ? lists.contract(chain, cid) : null, tokenMark(wallet, chain, cid)?.ruling ?? null);
    }
    const u = under[0]!;
    const known = u.internal_id ? d.byId.get(u.internal_id) : undefined;
    const cid = known?.cid ?? cidInId(u.internal_id);
    // Its own entry in the liquidity view: the position by (protocol, cid), as the views pair them.
    const liq = d.liquidity?.get(posKey(p.protocol_id, p.cid));
    const market: TokenFacts['market'] = !d.liquidity ? null : !liq ? 'absent' : ((liq.find((x) => x.symbol === u.symbol) ?? liq[0])?.slippage ?? 'listed');
    const facts: TokenFacts = {
      acquired: false,
      seen: true,
      firstHeld: null,
      ...known,
      chain,
      cid,
      symbol: u.symbol ?? p.symbol ?? null,
      name: u.name ?? p.name ?? null,
      valued: (p.principal_nav ?? 0) > 0 || (u.nav ?? 0) > 0,
      market,
      genuine: genuineToken(wallet, chain, cid),
    };
    return tokenVerdict(wallet, chain, facts, judgeOnDay(wallet, d, facts));
  };

  const token = (walletIn: string, chain: string, t: { cid: string | null; symbol?: string | null; name?: string | null }, day?: string): SpamVerdict => {
    const wallet = addressKey(walletIn);
    const cid = cidOf(t.cid);
    if (day) {
      const d = dayOf(wallet, chain, day);
      const f = d.facts.find((x) => x.cid === cid);
      if (f) return tokenVerdict(wallet, chain, f, judgeOnDay(wallet, d, f));
    }
    const h = historyToken(wallet, chain, cid, t.symbol ?? null, t.name ?? null);
    return tokenVerdict(wallet, chain, h.facts, h.rules);
  };

  /**
   * The verdict above the rules on a transaction, from the user's marks or the lists: what its
   * other ends and the tokens it brought in are called. The most specific level decides (this
   * wallet's marks before every wallet's); at a level an end called genuine wins, an end called
   * spam makes it spam, and tokens called spam make it spam only when every token it brought in is
   * (a genuine transfer is never hidden for a spam token beside it). A token called genuine says
   * nothing of the transaction: address poisoning sends real USDC. A transaction that moved the
   * wallet's funds out is never made spam this way: it is the record of money that left.
   */
  const txnRuling = (
    ends: readonly string[],
    received: readonly string[],
    endRuling: (a: string) => { ruling: Ruling; level: number } | null,
    tokenRuling: (cid: string) => { ruling: Ruling; level: number } | null,
    outflow: boolean,
  ): Ruling | null => {
    const byEnd = ends.map(endRuling).filter((x) => x !== null);
    const byToken = received.map(tokenRuling);
    for (const level of [0, 1]) {
      const genuine = byEnd.find((x) => x.level === level && !x.ruling.spam);
      if (genuine) return genuine.ruling;
      if (outflow) continue;
      const spamEnd = byEnd.find((x) => x.level === level && x.ruling.spam);
      if (spamEnd) return spamEnd.ruling;
      const spamToken = byToken.find((x) => x?.level === level && x.ruling.spam);
      if (spamToken && byToken.every((x) => x?.ruling.spam)) return spamToken.ruling;
    }
    return null;
  };

  /**
   * Verdicts by a row's shape (shapeOf): what the judge reads of a row, every quantity only as the
   * rules see it (absent, zero, negative, dust, more). A read is one snapshot of what the judge
   * knows, so two rows of one shape get one verdict: an export of a million rows judges the few
   * thousand shapes among them (a wallet's counterparties and tokens, over and over) once each.
   * Bounded: emptied when full, as a long export of all-distinct rows would otherwise hold them all.
   */
  const byShape = new Map<string, Omit<TxnJudgement, 'poisoning'> & { poisoning: Omit<PoisoningHit, 'txnHash'> | null }>();
  const walletKeys = new Map<string, string>();
  const transaction = (rowIn: SpamTxnRow): TxnJudgement => {
    let wallet = walletKeys.get(rowIn.wallet);
    if (wallet === undefined) walletKeys.set(rowIn.wallet, (wallet = addressKey(rowIn.wallet)));
    const shape = shapeOf(rowIn, wallet, dust);
    let known = byShape.get(shape);
    if (known === undefined) {
      if (byShape.size >= SHAPES_KEPT) byShape.clear();
      const { poisoning, ...rest } = judgeRow(rowIn, wallet);
      byShape.set(
        shape,
        (known = {
          ...rest,
          poisoning: poisoning && { lookalike: poisoning.lookalike, imitates: poisoning.imitates, prefix: poisoning.prefix, suffix: poisoning.suffix },
        }),
      );
    }
    return known.poisoning ? { ...known, poisoning: { ...known.poisoning, txnHash: rowIn.txnHash } } : (known as TxnJudgement);
  };
  const judgeRow = (rowIn: SpamTxnRow, wallet: string): TxnJudgement => {
    const row = readable(rowIn);
    const chain = row.chain;
    const parties = partiesOf(wallet);
    const { lookalike, ...rules } = judgeTransaction(row, {
      parties,
      token: (c, cid, symbol) => {
        const t = historyToken(wallet, c, cid, symbol);
        return { rules: t.rules, established: established(t.facts) };
      },
      dust: (c, cid, qty) => dust(wallet, c, cid, qty),
    });
    const ends = [...new Set([key(row.from), key(row.to)])].filter((a) => a && a !== wallet);
    const received = [...new Set(row.details.filter((d) => d.type === 'in').map((d) => cidOf(d.token_cid)))];
    const outflow = isOutflow(row);
    const user = txnRuling(
      ends,
      received,
      (a) => addressMark(wallet, a),
      (cid) => tokenMark(wallet, chain, cid),
      outflow,
    );
    const symbolOf = (cid: string) => row.details.find((d) => cidOf(d.token_cid) === cid)?.symbol ?? null;
    const list = txnRuling(
      ends,
      received,
      (a) => {
        const r = lists.address(chain, a);
        return r && { ruling: r, level: 0 };
      },
      (cid) => {
        const r = lists.token(chain, cid, symbolOf(cid), null);
        return r && { ruling: r, level: 0 };
      },
      outflow,
    );
    return { ...decide(rules, list, user), poisoning: poisoningGuard(row, parties), lookalike };
  };

  return {
    position,
    positions: (wallet, chain, day, ps) => ps.map((p) => position(wallet, chain, day, p)),
    token,
    transaction,
    poisoning: (row) => poisoningGuard(readable(row), partiesOf(addressKey(row.wallet))),
    vouched: (walletIn, chain, address) => {
      const wallet = addressKey(walletIn);
      const a = key(address);
      const named = book.find((c) => key(c.address) === a);
      if (named) return `${a} is in the address book as "${named.name}"`;
      const own = watched.find((w) => key(w.address) === a);
      if (own) return `${a} is a watched wallet${own.label ? ` ("${own.label}")` : ''}`;
      const mark = addressMark(wallet, a);
      if (mark) return mark.ruling.spam ? null : `you marked ${a} not spam for ${mark.level === 0 ? 'this wallet' : 'every wallet'}`;
      const list = lists.genuineAddressList(chain, a);
      return list === null ? null : `the list "${list}" calls ${a} genuine`;
    },
    notes: (walletIn) => {
      const wallet = addressKey(walletIn);
      const out: string[] = [];
      if (positionsFreshness(db, wallet).latest === null)
        out.push('No positions of this wallet are cached: whether it held a token before is not known, and no price says what dust is.');
      if (!historyCached(wallet))
        out.push(
          'No transactions of this wallet are cached: its counterparties are the address book and the watched wallets only, and what it bought is not known.',
        );
      return out;
    },
    knowDay: (walletIn, chain, day, views) => {
      const wallet = addressKey(walletIn);
      const k = `${wallet}|${chain}|${day}`;
      if (!days.has(k)) dayFrom(k, wallet, chain, views.underlying, views.liquidity);
    },
    forgetPositionsOf: (wallets) => {
      const forget = (kept: Map<string, unknown>, prefixes: readonly string[]) => {
        for (const k of kept.keys()) if (prefixes.some((p) => k.startsWith(p))) kept.delete(k);
      };
      const keys = [...new Set([...wallets].map(addressKey))];
      if (!keys.length) return;
      // Keyed `wallet\n…` (a wallet chain, a bucket, an address), `wallet|…` (a day, a token), the
      // wallet alone, or a row's shape (which begins with its wallet, length-prefixed).
      const line = keys.map((w) => `${w}\n`);
      const bar = keys.map((w) => `${w}|`);
      forget(heldOn.kept, line);
      forget(historyPeers.kept, line);
      forget(bucketParties.kept, line);
      forget(knownExactly.kept, line);
      forget(days, bar);
      forget(txnTokens, bar);
      forget(byShape, keys.map(part));
      for (const w of keys) {
        wholeDealings.kept.delete(w);
        bucketReads.delete(w);
      }
    },
  };
}

/**
 * A token's market on a day from the liquidity view: each position holding it (the by-underlying
 * view's breakdown) looked up there. A slippage under 0.5 anywhere is a market (one is enough); a
 * position listed without a slippage (a plain balance) is 'listed', never outweighed by a thin
 * pool elsewhere; else the smallest slippage found; 'absent' when the view lists none of them.
 */
function marketOf(
  liquidity: Map<string, ReadonlyArray<{ symbol: string | null; slippage: number | null }>>,
  symbol: string | null,
  breakdown: ReadonlyArray<{ protocol_id?: string | null; cid?: string | null }>,
): TokenFacts['market'] {
  const found: number[] = [];
  let listed = false;
  let listedCount = 0;
  for (const b of breakdown) {
    const u = liquidity.get(posKey(b.protocol_id, b.cid));
    if (!u) continue;
    listed = true;
    listedCount++;
    const s = (u.find((x) => x.symbol === symbol) ?? (u.length === 1 ? u[0] : undefined))?.slippage;
    if (typeof s === 'number') found.push(s);
  }
  const least = found.length ? Math.min(...found) : null;
  if (least !== null && least < NO_MARKET_SLIPPAGE) return least;
  if (listed && found.length < listedCount) return 'listed';
  if (least !== null) return least;
  return breakdown.length ? 'absent' : null;
}
