/**
 * The spam judge (docs/spam.md): pure, no database. A token or a transaction gets a score from
 * reasons that add up, each with a code, a weight and a sentence a user can read; it is spam
 * when the score reaches SPAM_THRESHOLD (SpamAssassin's way). Then `decide` puts the user's
 * verdict and the lists above the rules.
 *
 * Precision matters more than recall: hiding a genuine transfer misstates a treasury, showing a
 * spam one only clutters it. So no weak signal reaches the threshold alone (a token never held,
 * a sender never met, a multi-send, no liquidity entry), a transaction that moved the wallet's
 * own funds out is never spam by the rules, and the native coin never is.
 */
import { SPAM_THRESHOLD, type LookalikeHit, type PoisoningHit, type SpamReason, type SpamReasonValues, type SpamVerdict } from '../../../shared/spam.ts';
import { claimsNative, isNativeCid } from './natives.ts';
import { comparable, textSignals } from './text.ts';

export { SPAM_THRESHOLD };

/** Every reason's weight, in one place (docs/spam.md lists them). */
export const WEIGHTS = {
  // A token's symbol or name.
  'token.url': 6,
  'token.bait-symbol': 5,
  'token.bait-name': 3,
  'token.amount': 4,
  'token.emoji': 3,
  'token.dollar': 2,
  'token.confusable': 4,
  // What the token claims to be.
  'token.native-imitation': 6,
  'token.symbol-imitation': 5,
  'token.symbol-imitation-older': 4,
  // What the liquidity view says of its value.
  'token.no-market': 3,
  'token.no-liquidity-entry': 1,
  'token.never-acquired': 2,
  'token.native': -10,
  // A transaction.
  'txn.outflow': -100,
  'poison.zero-value': 6,
  'poison.dust': 6,
  // Two unrelated addresses share their first and last four hex digits about once in 4 billion
  // pairs: a sender that imitates a known counterparty is a poisoner, whatever it sent.
  'poison.lookalike': 5,
  'poison.zero-transfer-from': 5,
  'txn.zero-value': 2,
  'txn.multisend': 3,
  'txn.unseen-token': 1,
  'txn.stranger': 1,
  'txn.known-sender': -2,
} as const;
export type ReasonCode = keyof typeof WEIGHTS;

/** What the rules found: their score and reasons (heaviest first). */
export interface RuleResult {
  score: number;
  reasons: SpamReason[];
}

/** A reason: its sentence for the CLI and the CSV, and the values it says for a screen to say it in its own language (by code). */
const reason = (code: ReasonCode, text: string, values: SpamReasonValues = {}): SpamReason => ({ code, weight: WEIGHTS[code], text, values });
function result(reasons: SpamReason[]): RuleResult {
  const sorted = [...reasons].sort((a, b) => b.weight - a.weight);
  return { score: sorted.reduce((s, r) => s + r.weight, 0), reasons: sorted };
}

const EVM = /^0x[0-9a-f]{40}$/;
/** A contract or an address as the judge compares it: an EVM one in lower case, any other as written, '' for none. */
export function key(a: string | null | undefined): string {
  const t = (a ?? '').trim();
  return /^0x[0-9a-fA-F]{40}$/.test(t) ? t.toLowerCase() : t;
}
const short = (a: string) => (EVM.test(a) ? `${a.slice(0, 6)}…${a.slice(-4)}` : a);
const quoted = (s: string | null) => JSON.stringify((s ?? '').slice(0, 60));

// --- tokens -------------------------------------------------------------------------------

/** What is known of a token of one wallet on one chain, wherever it is judged (a holding, a transfer). */
export interface TokenFacts {
  chain: string;
  /** Its contract, as `key` gives it ('' when the service named none). */
  cid: string;
  symbol: string | null;
  name: string | null;
  /** The positions view values it (nav above 0). */
  valued: boolean;
  /**
   * The liquidity view's word on its market that day: the slippage of withdrawing it (0.5 and
   * more: no market to speak of), `'listed'` (the view lists it without a slippage, as it lists a
   * plain balance), `'absent'` (the view is cached and does not list it), or null (not known: the
   * view is not cached).
   */
  market: number | 'listed' | 'absent' | null;
  /** A loaded list (or the user) calls it genuine. */
  genuine: boolean;
  /** The wallet got it by a transaction of its own (a swap, a withdrawal): spam is pushed, not pulled. */
  acquired: boolean;
  /** In a cached position of the wallet on this chain (any day), and the first day it was. */
  seen: boolean;
  firstHeld: string | null;
}

/** The slippage at and above which a token's claimed value has no market behind it. */
export const NO_MARKET_SLIPPAGE = 0.5;
const hasMarket = (t: TokenFacts) => typeof t.market === 'number' && t.market < NO_MARKET_SLIPPAGE;
/** Listed by the liquidity view at all (with a market, or as a plain balance): more than a token it leaves out. */
const listedMarket = (t: TokenFacts) => hasMarket(t) || t.market === 'listed';
const lacksMarket = (t: TokenFacts) => t.market === 'absent' || (typeof t.market === 'number' && t.market >= NO_MARKET_SLIPPAGE);

/**
 * The token it impersonates: another contract of the same symbol (any case, look-alike letters
 * folded) the wallet has on the chain that looks genuine where this one does not. `strong`: the
 * other is on a genuine list, was bought while this one was not, has a market where this one has
 * none, or was held while this one never was; `older`: the other was only held earlier, and this
 * one's market is not known (two genuine tokens may share a symbol: both would have markets).
 * The strength by market counts a peer the liquidity view lists at all (a plain balance has no
 * slippage) against a token it leaves out or gives no market.
 */
export function imitated(t: TokenFacts, peers: readonly TokenFacts[]): { peer: TokenFacts; strength: 'strong' | 'older' } | null {
  const symbol = comparable(t.symbol);
  if (!symbol || t.genuine || isNativeCid(t.chain, t.cid)) return null;
  let older: TokenFacts | null = null;
  for (const p of peers) {
    if (p.cid === t.cid || isNativeCid(p.chain, p.cid) || comparable(p.symbol) !== symbol) continue;
    // A peer called genuine (a list, the user's "not spam") that has no market of its own does not
    // make a token that has one its copy: the user who keeps a junk "LINK" keeps the real LINK too.
    if (
      (p.genuine && !(lacksMarket(p) && listedMarket(t))) ||
      (p.acquired && !t.acquired) ||
      (listedMarket(p) && lacksMarket(t)) ||
      (p.seen && !t.seen && !t.acquired)
    )
      return { peer: p, strength: 'strong' };
    if (!older && p.firstHeld && t.firstHeld && p.firstHeld < t.firstHeld && !hasMarket(t) && !t.acquired) older = p;
  }
  return older ? { peer: older, strength: 'older' } : null;
}

/** The token rules. `peers`: the wallet's other tokens on the chain (for impersonation). */
export function judgeToken(t: TokenFacts, peers: readonly TokenFacts[] = []): RuleResult {
  if (isNativeCid(t.chain, t.cid)) return result([reason('token.native', `It is the chain's native coin (${t.symbol ?? 'no symbol'}).`, { symbol: t.symbol })]);
  const out: SpamReason[] = [];
  const s = textSignals(t.symbol);
  const n = textSignals(t.name);
  if (s.url || n.url)
    out.push(
      reason('token.url', `Its ${s.url ? 'symbol' : 'name'} ${quoted(s.url ? t.symbol : t.name)} holds a link or a domain: how an airdrop advertises a site.`, {
        field: s.url ? 'symbol' : 'name',
        value: quoted(s.url ? t.symbol : t.name),
      }),
    );
  if (s.bait)
    out.push(reason('token.bait-symbol', `Its symbol ${quoted(t.symbol)} asks to claim or visit, or promises a reward.`, { value: quoted(t.symbol) }));
  else if (n.bait) out.push(reason('token.bait-name', `Its name ${quoted(t.name)} asks to claim or visit, or promises a reward.`, { value: quoted(t.name) }));
  if (s.amount || n.amount)
    out.push(
      reason('token.amount', `Its ${s.amount ? 'symbol' : 'name'} ${quoted(s.amount ? t.symbol : t.name)} states an amount of money.`, {
        field: s.amount ? 'symbol' : 'name',
        value: quoted(s.amount ? t.symbol : t.name),
      }),
    );
  else if (s.dollar) out.push(reason('token.dollar', `Its symbol ${quoted(t.symbol)} starts with "$".`, { value: quoted(t.symbol) }));
  if (s.emoji || n.emoji) out.push(reason('token.emoji', `Its ${s.emoji ? 'symbol' : 'name'} holds emoji.`, { field: s.emoji ? 'symbol' : 'name' }));
  if (s.confusable || n.confusable)
    out.push(
      reason(
        'token.confusable',
        `Its ${s.confusable ? 'symbol' : 'name'} ${quoted(s.confusable ? t.symbol : t.name)} uses letters of another script that look Latin, or invisible characters.`,
        { field: s.confusable ? 'symbol' : 'name', value: quoted(s.confusable ? t.symbol : t.name) },
      ),
    );
  const native = t.genuine ? null : claimsNative(t.chain, t.symbol, t.name);
  if (native)
    out.push(
      reason(
        'token.native-imitation',
        `It calls itself ${native}, the chain's native coin, but its contract ${short(t.cid) || '(none)'} is not the native coin's.`,
        { native, contract: short(t.cid) },
      ),
    );
  else {
    const copy = imitated(t, peers);
    if (copy) {
      const because =
        copy.strength === 'older'
          ? 'older'
          : copy.peer.genuine
            ? 'genuine'
            : copy.peer.acquired && !t.acquired
              ? 'acquired'
              : listedMarket(copy.peer) && lacksMarket(t)
                ? 'market'
                : 'held';
      const why = {
        older: `held since ${copy.peer.firstHeld}, before this one (${t.firstHeld})`,
        genuine: 'on a list of genuine tokens',
        acquired: 'bought or withdrawn by the wallet itself',
        market: 'listed by the liquidity view, where this one has no market',
        held: 'held in the wallet, where this one never was',
      }[because];
      out.push(
        reason(
          copy.strength === 'strong' ? 'token.symbol-imitation' : 'token.symbol-imitation-older',
          `Its symbol ${quoted(t.symbol)} copies the token at ${short(copy.peer.cid)} (${why}) from another contract, ${short(t.cid)}.`,
          {
            value: quoted(t.symbol),
            peer: short(copy.peer.cid),
            contract: short(t.cid),
            because,
            peerSince: copy.peer.firstHeld,
            since: t.firstHeld,
          },
        ),
      );
    }
  }
  if (t.valued && typeof t.market === 'number' && t.market >= NO_MARKET_SLIPPAGE)
    out.push(
      reason('token.no-market', `It is given a value, but selling it would lose ${Math.round(t.market * 100)} % to slippage: no market to speak of.`, {
        percent: Math.round(t.market * 100),
        form: 'valued',
      }),
    );
  // Worth nothing and unsellable is junk too (a plausible name, nothing claimed): with nothing else
  // against it, it stays below the threshold; one the wallet never acquired itself reaches it.
  else if (typeof t.market === 'number' && t.market >= NO_MARKET_SLIPPAGE)
    out.push(
      reason('token.no-market', `Selling it would lose ${Math.round(t.market * 100)} % to slippage: it has no market to speak of.`, {
        percent: Math.round(t.market * 100),
        form: 'sell',
      }),
    );
  else if (t.valued && t.market === 'absent')
    out.push(reason('token.no-liquidity-entry', 'It is given a value, but the liquidity view of the day does not list it.'));
  return result(out);
}

/** A protocol position (a pool, a loan, a stake) as the position rules see it. */
export interface ProtocolPositionFacts {
  chain: string;
  cid: string;
  symbol: string | null;
  name: string | null;
  /** The liquidity view's slippage of each of its tokens (null: not given); null when that view does not list it or is not cached. */
  slippages: ReadonlyArray<number | null> | null;
}

/**
 * The rules for a protocol position: what its own symbol and name say (a link, an amount, emoji,
 * look-alike letters; not bait words, which genuine positions use: "Rewards") and whether any of its
 * tokens has a market. Whose tokens it holds is judged token by token (`SpamJudge.token`).
 */
export function judgeProtocolPosition(p: ProtocolPositionFacts): RuleResult {
  const out: SpamReason[] = [];
  const s = textSignals(p.symbol);
  const n = textSignals(p.name);
  if (s.url || n.url)
    out.push(
      reason('token.url', `Its ${s.url ? 'symbol' : 'name'} ${quoted(s.url ? p.symbol : p.name)} holds a link or a domain: how an airdrop advertises a site.`, {
        field: s.url ? 'symbol' : 'name',
        value: quoted(s.url ? p.symbol : p.name),
      }),
    );
  if (s.amount || n.amount)
    out.push(
      reason('token.amount', `Its ${s.amount ? 'symbol' : 'name'} ${quoted(s.amount ? p.symbol : p.name)} states an amount of money.`, {
        field: s.amount ? 'symbol' : 'name',
        value: quoted(s.amount ? p.symbol : p.name),
      }),
    );
  if (s.emoji || n.emoji) out.push(reason('token.emoji', `Its ${s.emoji ? 'symbol' : 'name'} holds emoji.`, { field: s.emoji ? 'symbol' : 'name' }));
  if (s.confusable || n.confusable)
    out.push(
      reason('token.confusable', `Its ${s.confusable ? 'symbol' : 'name'} uses letters of another script that look Latin, or invisible characters.`, {
        field: s.confusable ? 'symbol' : 'name',
        value: null,
      }),
    );
  const given = (p.slippages ?? []).filter((x): x is number => typeof x === 'number');
  if (given.length && given.every((x) => x >= NO_MARKET_SLIPPAGE))
    out.push(
      reason('token.no-market', `Withdrawing it would lose at least ${Math.round(Math.min(...given) * 100)} % to slippage: no market to speak of.`, {
        percent: Math.round(Math.min(...given) * 100),
        form: 'withdraw',
      }),
    );
  return result(out);
}

/**
 * A token already suspect (some reason counts against it) that the wallet never got by a
 * transaction of its own, where its history is cached: it arrived by itself. Counted only beside
 * another reason, so a genuine token received as a payment is never the worse for it alone.
 */
export function withNeverAcquired(rules: RuleResult, symbol: string | null): RuleResult {
  if (rules.score <= 0 || rules.reasons.some((r) => r.code === 'token.never-acquired')) return rules;
  return result([
    ...rules.reasons,
    reason('token.never-acquired', `The wallet never bought, withdrew or claimed ${quoted(symbol)} in a transaction of its own: it arrived by itself.`, {
      value: quoted(symbol),
    }),
  ]);
}

// --- counterparties -----------------------------------------------------------------------

/** The shared ends of two lookalike addresses. */
export interface Lookalike {
  imitates: string;
  /** `0x` and the shared leading hex digits (at least 4). */
  prefix: string;
  /** The shared trailing hex digits (at least 4). */
  suffix: string;
}

/** How many leading or trailing hex digits two EVM addresses share. */
function shared(a: string, b: string): { head: number; tail: number } {
  let head = 0;
  while (head < 40 && a[2 + head] === b[2 + head]) head++;
  let tail = 0;
  while (tail < 40 && a[41 - tail] === b[41 - tail]) tail++;
  return { head, tail };
}

/** Four digits at each end: what a wallet shows of an address, and so what a poisoner copies. */
export const LOOKALIKE_DIGITS = 4;
const bucketOf = (a: string) => a.slice(2, 2 + LOOKALIKE_DIGITS) + a.slice(-LOOKALIKE_DIGITS);

/** What the transaction rules ask of a wallet's counterparties: is an address known, and does it imitate one that is. */
export interface Counterparties {
  has(address: string | null | undefined): boolean;
  lookalikeOf(address: string | null | undefined): Lookalike | null;
}

/** The bucket of lookalikes an EVM address falls in: its first and last 4 hex digits (null for any other address). */
export function lookalikeBucket(address: string): string | null {
  const a = key(address);
  return EVM.test(a) ? bucketOf(a) : null;
}

/**
 * The counterparties a wallet knows, and which addresses imitate one: an EVM address that is not
 * known but shares at least 4 hex digits after `0x` and at least 4 at the end with a known one
 * (case aside). Each question is a map lookup.
 */
export class KnownParties implements Counterparties {
  private readonly known = new Set<string>();
  private readonly buckets = new Map<string, string[]>();

  constructor(addresses: Iterable<string> = []) {
    for (const a of addresses) this.add(a);
  }

  add(address: string): void {
    const a = key(address);
    if (!a || this.known.has(a)) return;
    this.known.add(a);
    if (!EVM.test(a)) return;
    const b = bucketOf(a);
    const list = this.buckets.get(b);
    if (list) list.push(a);
    else this.buckets.set(b, [a]);
  }

  has(address: string | null | undefined): boolean {
    return this.known.has(key(address));
  }

  get size(): number {
    return this.known.size;
  }

  /** The known counterparty `address` imitates (the one sharing most digits), or null. */
  lookalikeOf(address: string | null | undefined): Lookalike | null {
    const a = key(address);
    if (!EVM.test(a) || this.known.has(a)) return null;
    let best: { b: string; head: number; tail: number } | null = null;
    for (const b of this.buckets.get(bucketOf(a)) ?? []) {
      const s = shared(a, b);
      if (!best || s.head + s.tail > best.head + best.tail) best = { b, ...s };
    }
    if (!best) return null;
    return { imitates: best.b, prefix: `0x${a.slice(2, 2 + best.head)}`, suffix: a.slice(42 - best.tail) };
  }
}

/** One address a wallet dealt with genuinely, and when first (Unix ms; 0 unknown). */
export interface PartyEvidence {
  address: string;
  first: number;
}

/**
 * An address known whatever the wallet did (the address book, a watched wallet, an address a
 * list or the user calls genuine), and where it stands in the order: when it first appeared
 * (Unix ms), `-Infinity` before all, `Infinity` after all. A bare address stands before all.
 */
export type Anchor = string | { address: string; first: number };

/**
 * The known counterparties: the anchors (the address book, the watched wallets, addresses a list
 * or the user calls genuine) and the addresses with evidence, taken in the order they first
 * appeared. An anchor is always known. An address with evidence that looks like one already known
 * is left out: it came later, so it is the imitation (a wallet fooled once into paying a poisoner
 * does not make the poisoner known). An anchor that came after an address with evidence makes no
 * lookalike of it: calling one address genuine never makes the counterparty it resembles, dealt
 * with before, an imitation of it. `demoted` names each left out and whom it imitates.
 */
export function knownParties(anchors: Iterable<Anchor>, evidence: readonly PartyEvidence[]): { parties: KnownParties; demoted: Map<string, string> } {
  const parties = new KnownParties();
  const demoted = new Map<string, string>();
  const entries = [
    ...[...anchors].map((a) => (typeof a === 'string' ? { address: a, first: -Infinity, anchor: true } : { ...a, anchor: true })),
    ...evidence.map((e) => ({ address: e.address, first: e.first, anchor: false })),
  ];
  // By when first seen; at the same time an anchor first (it is known whatever came with it).
  entries.sort((a, b) => a.first - b.first || Number(b.anchor) - Number(a.anchor) || (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
  for (const e of entries) {
    if (e.anchor) {
      demoted.delete(key(e.address));
      parties.add(e.address);
      continue;
    }
    if (parties.has(e.address) || demoted.has(key(e.address))) continue;
    const like = parties.lookalikeOf(e.address);
    if (like) demoted.set(key(e.address), like.imitates);
    else parties.add(e.address);
  }
  return { parties, demoted };
}

// --- transactions -------------------------------------------------------------------------

/** A cached transaction as the readers hold it (the timeline's row, the rules' row, the period's). */
export interface SpamTxnRow {
  wallet: string;
  chain: string;
  txnHash: string;
  from: string | null;
  to: string | null;
  methodHex: string | null;
  protocolId?: string | null;
  /** 1 succeeded, 0 failed, null or absent not known. */
  status?: number | null;
  details: ReadonlyArray<{ token_cid?: string | null; type: string | null; qty: number | null; symbol: string | null }>;
}

export const TRANSFER = '0xa9059cbb';
export const TRANSFER_FROM = '0x23b872dd';
/**
 * Selectors of contracts that send to many addresses in one transaction (Disperse and the usual
 * bulk senders): an airdrop's way. Safe's `multiSend(bytes)` is left out: treasuries pay with it.
 */
export const MULTISEND_SELECTORS: ReadonlyMap<string, string> = new Map([
  ['0xe63d38ed', 'disperseEther(address[],uint256[])'],
  ['0xc73a2d60', 'disperseToken(address,address[],uint256[])'],
  ['0x51ba162c', 'disperseTokenSimple(address,address[],uint256[])'],
  ['0xab883d28', 'multisendEther(address[],uint256[])'],
  ['0x0b66f3f5', 'multisendToken(address,address[],uint256[])'],
  ['0x1e89d545', 'multiTransfer(address[],uint256[])'],
  ['0x1ca0a28d', 'multiTransfer(address,address[],uint256[])'],
  ['0x88d695b2', 'batchTransfer(address[],uint256[])'],
  ['0x1239ec8c', 'batchTransfer(address,address[],uint256[])'],
  ['0x153a1f3e', 'bulkTransfer(address[],uint256[])'],
  ['0xe886dade', 'bulkTransfer(address,address[],uint256[])'],
  ['0x67243482', 'airdrop(address[],uint256[])'],
  ['0x025ff12f', 'airdrop(address,address[],uint256[])'],
  ['0xc204642c', 'airdrop(address[],uint256)'],
  ['0x967d7f88', 'dropTokens(address[],uint256)'],
]);

/** What the transaction rules ask of the read they run in: the counterparties, each received token judged, dust. */
export interface TxnContext {
  parties: Counterparties;
  /** A token the wallet received, judged by the token rules; `established`: the wallet had it before (held, bought, native, listed genuine). */
  token(chain: string, cid: string, symbol: string | null): { rules: RuleResult; established: boolean };
  /** Whether a received quantity of a token is dust (worth under a dollar where a price is known; else a tiny quantity). */
  dust(chain: string, cid: string, qty: number): boolean;
}

interface Detail {
  cid: string;
  type: string | null;
  qty: number | null;
  symbol: string | null;
}
const detailsOf = (row: SpamTxnRow): Detail[] => row.details.map((d) => ({ cid: key(d.token_cid), type: d.type, qty: d.qty, symbol: d.symbol }));
const method = (row: SpamTxnRow) => (row.methodHex ?? '').slice(0, 10).toLowerCase();

/** The wallet's own funds left in it: any transfer out of a quantity above zero (sent by the wallet, or pulled by a spender it approved). */
export function isOutflow(row: SpamTxnRow): boolean {
  return row.details.some((d) => d.type === 'out' && typeof d.qty === 'number' && d.qty > 0);
}

/** Nothing of value moved: every transfer is of zero, or (none listed) a succeeded token transfer call. */
function isZeroValue(row: SpamTxnRow, d: readonly Detail[], wallet: string): boolean {
  if (d.length) return d.every((x) => x.qty === 0);
  const m = method(row);
  return row.status !== 0 && (m === TRANSFER || m === TRANSFER_FROM) && key(row.from) !== wallet;
}

/**
 * The transaction rules. A transaction that moved the wallet's funds out is never spam by them
 * (only the user can say so); otherwise the address-poisoning patterns, a multi-send, a token
 * never held from a sender never met, and the received tokens' own reasons (the most genuine
 * received token's: a transaction is spam by its tokens only when all it brought in is) add up.
 */
export function judgeTransaction(row: SpamTxnRow, ctx: TxnContext): RuleResult & { lookalike: LookalikeHit | null } {
  if (isOutflow(row))
    return {
      ...result([reason('txn.outflow', "The wallet's own funds went out in it: no rule marks it as spam (you can mark its token or counterparty).")]),
      lookalike: null,
    };
  const wallet = key(row.wallet);
  const from = key(row.from);
  const to = key(row.to);
  const details = detailsOf(row);
  const ins = details.filter((d) => d.type === 'in');
  const received = ins.length > 0 || (to === wallet && from !== wallet);
  const out: SpamReason[] = [];

  // Address poisoning: a counterparty imitating a known one (either end that is not the wallet).
  const ends = [from, to].filter((a) => a && a !== wallet);
  let like: LookalikeHit | null = null;
  for (const a of ends) {
    const l = ctx.parties.lookalikeOf(a);
    if (l) {
      like = { ...l, address: a };
      break;
    }
  }
  const zero = isZeroValue(row, details, wallet);
  if (like) {
    const parts = { address: short(like.address), imitates: short(like.imitates), prefix: like.prefix, suffix: like.suffix };
    const who = `${short(like.address)} imitates ${short(like.imitates)}, a known counterparty (the same ${like.prefix} … ${like.suffix}, another middle)`;
    const positive = ins.filter((d) => typeof d.qty === 'number' && d.qty > 0);
    if (zero) out.push(reason('poison.zero-value', `A transfer of zero involving ${who}: address poisoning, to get the lookalike into the history.`, parts));
    else if (positive.length && positive.every((d) => ctx.dust(row.chain, d.cid, d.qty!)))
      out.push(reason('poison.dust', `Dust from ${who}: address poisoning, to get the lookalike into the history.`, parts));
    else if (received) out.push(reason('poison.lookalike', `Received from ${who}.`, parts));
  } else if (zero && method(row) === TRANSFER_FROM && from !== wallet)
    out.push(
      reason('poison.zero-transfer-from', 'A transferFrom of zero the wallet did not send: the way address poisoning writes a lookalike into a history.'),
    );
  else if (zero && received) out.push(reason('txn.zero-value', 'A transfer of zero to the wallet: it moved nothing.'));

  if (received && from !== wallet && MULTISEND_SELECTORS.has(method(row)))
    out.push(
      reason('txn.multisend', `Received through a multi-send (${MULTISEND_SELECTORS.get(method(row))}): how airdrops reach many wallets at once.`, {
        method: MULTISEND_SELECTORS.get(method(row)) ?? '',
      }),
    );

  // The tokens received: never held before, from whom, and their own reasons.
  const seen = new Set<string>();
  const unseen: string[] = [];
  let mildest: { rules: RuleResult; symbol: string | null } | null = null;
  for (const d of ins) {
    const id = `${d.cid}|${d.symbol ?? ''}`;
    if (seen.has(id)) continue;
    seen.add(id);
    const t = ctx.token(row.chain, d.cid, d.symbol);
    if (!t.established) unseen.push(d.symbol ?? short(d.cid));
    if (!mildest || t.rules.score < mildest.rules.score) mildest = { rules: t.rules, symbol: d.symbol };
  }
  if (unseen.length) {
    out.push(
      reason('txn.unseen-token', `The wallet never held or bought ${unseen.map((s) => quoted(s)).join(', ')} before.`, {
        tokens: unseen.map((s) => quoted(s)).join(', '),
      }),
    );
    if (from && from !== wallet && !ctx.parties.has(from) && !like)
      out.push(reason('txn.stranger', `It came from ${short(from)}, an address the wallet never dealt with.`, { address: short(from) }));
  }
  if (from && from !== wallet && ctx.parties.has(from) && received)
    out.push(reason('txn.known-sender', `It came from ${short(from)}, a known counterparty.`, { address: short(from) }));
  if (mildest && mildest.rules.score > 0)
    for (const r of mildest.rules.reasons)
      if (r.weight > 0) out.push({ ...r, text: `${mildest.symbol ?? 'The token'}: ${r.text}`, token: mildest.symbol ?? '' });
  return { ...result(out), lookalike: like };
}

/**
 * The poisoning guard: an outflow (the wallet sends a quantity above zero) to an address that is
 * not a known counterparty but imitates one. Null when the recipient is known, not a lookalike,
 * or nothing went out.
 */
export function poisoningGuard(row: SpamTxnRow, parties: Counterparties): PoisoningHit | null {
  if (!isOutflow(row)) return null;
  const wallet = key(row.wallet);
  const to = key(row.to);
  if (!to || to === wallet) return null;
  const like = parties.lookalikeOf(to);
  return like ? { lookalike: to, imitates: like.imitates, prefix: like.prefix, suffix: like.suffix, txnHash: row.txnHash } : null;
}

// --- who decides --------------------------------------------------------------------------

/** A verdict from above the rules: the user's, or a list's. */
export interface Ruling {
  spam: boolean;
  text: string;
  code: string;
  values?: SpamReasonValues;
}

/** The user's verdict wins, then a list's, then the rules' score. */
export function decide(rules: RuleResult, list: Ruling | null, user: Ruling | null): SpamVerdict {
  const top = user ?? list;
  if (top)
    return {
      spam: top.spam,
      score: rules.score,
      decidedBy: user ? 'user' : 'list',
      reasons: [{ code: top.code, weight: 0, text: top.text, ...(top.values && { values: top.values }) }, ...rules.reasons],
    };
  return { spam: rules.score >= SPAM_THRESHOLD, score: rules.score, decidedBy: 'rules', reasons: rules.reasons };
}
