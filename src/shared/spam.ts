/**
 * Spam, as the core judges it and the screens show it (docs/spam.md): a verdict with its score and
 * readable reasons, who decided it (the rules, a loaded list, or the user), the user's own marks,
 * the lists loaded, and a poisoning hit. Types only, free of Node: the renderer reads them too.
 */

/** The score at which the rules call a token or a transaction spam (SpamAssassin's way: reasons add up). */
export const SPAM_THRESHOLD = 5;

/** The names and figures a reason's sentence says, by name (docs/spam.md lists each code's). */
export type SpamReasonValues = Record<string, string | number | null>;

/**
 * One reason: a stable code (for filters and tests), its weight (negative: evidence it is
 * genuine), and a sentence a user can read (English: the CLI's and the CSV's). `values` are what
 * the sentence says, so a screen in another language says the reason again by its code
 * (renderer lib/spam.ts); `token`: a transaction's reason that is a received token's own, that
 * token's symbol ('' when it has none).
 */
export interface SpamReason {
  code: string;
  weight: number;
  text: string;
  values?: SpamReasonValues;
  token?: string;
}

/**
 * Who decided: the user's verdict always wins, then a loaded list (the shipped one or the user's),
 * then the rules (spam when the score reaches SPAM_THRESHOLD).
 */
export type SpamDecider = 'rules' | 'list' | 'user';

export interface SpamVerdict {
  spam: boolean;
  /** The rules' score, whoever decided (so an explanation says what the rules alone would say). */
  score: number;
  decidedBy: SpamDecider;
  /** The user's or the list's reason first when one of them decided, then the rules' reasons, heaviest first. */
  reasons: SpamReason[];
}

/**
 * An outflow to an address that imitates a known counterparty (address poisoning): the same first
 * and last hex characters, another middle. `prefix` is `0x` and the shared leading hex digits,
 * `suffix` the shared trailing ones (each at least 4).
 */
export interface PoisoningHit {
  lookalike: string;
  imitates: string;
  prefix: string;
  suffix: string;
  txnHash: string;
}

/**
 * An end of a received transaction that imitates a known counterparty (zero, dust or a fake sent
 * to get the lookalike into the history): the address, whom it imitates, and the shared ends.
 */
export interface LookalikeHit {
  address: string;
  imitates: string;
  prefix: string;
  suffix: string;
}

/** What a user's verdict is about: a token on one chain, a contract on every chain, or an address (a counterparty). */
export type SpamMarkKind = 'token' | 'contract' | 'address';
export type SpamMarkVerdict = 'spam' | 'not-spam';

/** A user's verdict, as kept in the cache and carried in the user-data file. */
export interface SpamMark {
  kind: SpamMarkKind;
  /** The chain of a token; null for a contract or an address (every chain). */
  chain: string | null;
  /** The token's contract or the address (an EVM address in lower case). */
  target: string;
  /** The one wallet it holds for; null: every wallet. */
  wallet: string | null;
  verdict: SpamMarkVerdict;
  note: string;
  createdAt: string;
  updatedAt: string;
  /** Its newest edit (core/store/versions.ts), to send back as `expectedVersion`. */
  version?: number;
}

/** A loaded list: the shipped defaults or one the user imported, with what it holds. */
export interface SpamListInfo {
  name: string;
  source: 'default' | 'user';
  /** When the user imported it (null for the shipped one). */
  importedAt: string | null;
  tokens: number;
  addresses: number;
  symbolPatterns: number;
  /** A user list's newest edit (core/store/versions.ts), to send back as `expectedVersion`. */
  version?: number;
}

/** `spam.explain`: one token or one transaction, judged as every reader judges it. */
export interface SpamExplanation {
  subject:
    | { kind: 'token'; wallet: string; chain: string; cid: string; symbol: string | null; name: string | null; date: string | null }
    | { kind: 'transaction'; wallet: string; chain: string; txnHash: string };
  verdict: SpamVerdict;
  /** A transaction only: an outflow to a lookalike of a known counterparty. */
  poisoning: PoisoningHit | null;
  /** A transaction only: an end of it that imitates a known counterparty (what it sent the wallet is poisoning). */
  lookalike: LookalikeHit | null;
  /** What was not known when judging (no positions cached, no liquidity view of the day …), one line each. */
  notes: string[];
}
