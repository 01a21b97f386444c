/**
 * The hash of the data behind a closed period's figures (docs/closes.md): SHA-256 over a
 * canonical serialisation of named parts, each hashed on its own so a later check can say
 * which part changed.
 *
 * A part is a name and the rows it reads for a period (a snapshot's stored SHA-256, a
 * transaction's columns, a wallet's label …). Each row is written as JSON, one per line, after
 * the part's name: an object with its keys sorted, an array of column values as it is (the part
 * names its columns in its first row); the period's hash is the SHA-256 of the period (scope's
 * members, from, to) and every part's name and hash, in the order of the parts. The list of
 * parts grows with what the figures show (the address book's names; the annotations' categories);
 * a close records the parts it hashed, and a check recomputes only those, so a part added later
 * never flags a period closed before it existed.
 */
import { createHash } from 'node:crypto';
import type { ReadableDB } from '../store/handles.ts';
import { groupNow, memberWallets } from './store/closes.ts';
import { basisSnapshots } from '../positions/index.ts';
import { flowWindow } from '../analytics/index.ts';
import { windowCategories, windowCounterparties, WINDOW_TRANSACTION_COLUMNS, windowTransactions } from '../ledger/index.ts';
import { spamBasis } from '../spam/index.ts';

/** What a part reads: the period and its scope as closed. */
export interface HashedPeriod {
  /** The member wallets (addresses as stored) at close. */
  wallets: readonly string[];
  from: string;
  to: string;
  /** The group the scope is (kind group), by id. */
  group: number | null;
}

export interface HashPart {
  name: string;
  /** What a change of it is, in words ("wallet labels or chains"): a flag's "data edited" line. */
  edited?: string;
  /** Names only: a change of it changes no figure, and is a finding of its own (no flag, no alert). */
  names?: true;
  rows(db: ReadableDB, p: HashedPeriod): Iterable<unknown>;
}

/** JSON with every object's keys sorted: the same data always gives the same text. */
export function canonical(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v ?? null);
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o)
    .filter((k) => o[k] !== undefined)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
    .join(',')}}`;
}

/**
 * The parts every close hashes, in order. (a) the snapshots the two portfolio views and the
 * by-token prices stood on; (b) the period's transactions of the members (in the reconciliation's
 * flow window: after the opening date's day through the closing date's day); (c) the user's data
 * the figures stand on: the members' chains, the group's members, which counterparties are the
 * user's own, the categories; (d) the names shown beside them (labels, the group's name, the
 * address book's names), a part of their own: a rename is no change of figures.
 */
export const HASH_PARTS: readonly HashPart[] = [
  {
    name: 'snapshot-contents',
    // By the SHA-256 of the body the service sent without its request id, not the row's id (this
    // cache's own): the same data hashes the same in a restored backup or in another cache the
    // close was imported into, whose answers carried other request ids.
    rows: (db, p) =>
      basisSnapshots(db, p.wallets, p.from, p.to).map(({ wallet, chain, endpoint, asOf, content }) => ({ wallet, chain, endpoint, asOf, content })),
  },
  {
    name: 'transactions',
    // Arrays of the columns named first (the part's first row): the cheapest rows to read and write.
    rows: function* (db, p) {
      const { start, end } = flowWindow(p.from, p.to);
      yield WINDOW_TRANSACTION_COLUMNS;
      yield* windowTransactions(db, p.wallets, start, end);
    },
  },
  {
    name: 'wallet-chains',
    edited: 'the chains a member wallet is watched on',
    // A wallet no longer watched is a row of its own: its data left the scope.
    rows: (db, p) => {
      const found = new Map(memberWallets(db, p.wallets).map((w) => [w.address, w]));
      return p.wallets.map((a) => {
        const w = found.get(a);
        return w ? { address: a, chains: w.chains } : { address: a, removed: true };
      });
    },
  },
  {
    name: 'group-members',
    edited: "the group's members",
    rows: (db, p) => {
      if (p.group === null) return [];
      const g = groupNow(db, p.group);
      return [g ? { wallets: g.wallets } : { removed: true }];
    },
  },
  {
    name: 'counterparty-roles',
    edited: "which of the period's counterparties the address book marks as your own (and on which chains)",
    // The book's "ours" entries among the addresses the period's transactions deal with: they move
    // flows between external and internal. Any other entry only names an address (`names`); an
    // entry for an address the period never met changes nothing.
    rows: (db, p) => {
      const { start, end } = flowWindow(p.from, p.to);
      return windowCounterparties(db, p.wallets, start, end)
        .filter((c) => c.ours)
        .map(({ address, chains }) => ({ address, chains }));
    },
  },
  {
    name: 'names',
    names: true,
    edited: "names only (member wallet labels, the group's name, the address book's names of the period's counterparties); no figure changed",
    // The names the pack shows beside its figures: a rename is a finding of its own, not a change
    // of the figures (issue 39).
    rows: function* (db, p) {
      for (const w of memberWallets(db, p.wallets)) yield { wallet: w.address, label: w.label };
      if (p.group !== null) yield { group: groupNow(db, p.group)?.name ?? null };
      const { start, end } = flowWindow(p.from, p.to);
      for (const c of windowCounterparties(db, p.wallets, start, end)) yield { counterparty: c.address, name: c.name };
    },
  },
  {
    name: 'categories',
    edited: 'the categories of the period’s transactions (a note’s category or a rule)',
    // Each categorised transaction's category (a manual choice, else a rule's): the pack's flows
    // by category. Notes without a category change no figure and are not in it.
    rows: function* (db, p) {
      const { start, end } = flowWindow(p.from, p.to);
      yield ['wallet', 'chain', 'txn_hash', 'category'];
      yield* windowCategories(db, p.wallets, start, end);
    },
  },
  {
    name: 'spam-verdicts',
    edited: 'what is judged spam (your verdicts for these wallets, the spam lists you loaded)',
    // Every figure leaves spam out (docs/spam.md): a token called "not spam" after the close puts
    // its value back in the pack. Added after version 23's closes: a close made before does not
    // name it, so an upgrade flags nothing.
    rows: (db, p) => spamBasis(db, p.wallets),
  },
];

/**
 * Parts a close made by an earlier version may name, no longer hashed by a new close: a check
 * recomputes them as they were, so the upgrade flags nothing. `snapshots` (before version 22)
 * hashed the bodies as received, request id and all; `wallets`, `group` and `counterparties`
 * held names and figures together.
 */
const EARLIER_PARTS: readonly HashPart[] = [
  {
    name: 'snapshots',
    rows: (db, p) => basisSnapshots(db, p.wallets, p.from, p.to).map(({ id: _id, content: _content, ...s }) => s),
  },
  // Before version 22 a name and a figure were one part: a rename flagged these as edited data.
  {
    name: 'wallets',
    edited: 'wallet labels or chains',
    // A wallet no longer watched is a row of its own: its data left the scope.
    rows: (db, p) => {
      const found = new Map(memberWallets(db, p.wallets).map((w) => [w.address, w]));
      return p.wallets.map((a) => found.get(a) ?? { address: a, removed: true });
    },
  },
  {
    name: 'group',
    edited: "the group's name or members",
    rows: (db, p) => (p.group === null ? [] : [groupNow(db, p.group) ?? { removed: true }]),
  },
  {
    name: 'counterparties',
    edited: 'the names of the period’s counterparties in the address book',
    // The book's entries for the addresses the period's transactions deal with: a rename changes
    // the pack's flows by counterparty; an entry for an address the period never met does not.
    rows: (db, p) => {
      const { start, end } = flowWindow(p.from, p.to);
      return windowCounterparties(db, p.wallets, start, end);
    },
  },
];

/** The part of that name, of this version or one a close made before may name. */
export function partNamed(name: string): HashPart | undefined {
  return HASH_PARTS.find((x) => x.name === name) ?? EARLIER_PARTS.find((x) => x.name === name);
}

/**
 * A part's hash. A row that is an array (column values, in an order the part fixes) is written
 * as JSON as it is; an object with its keys sorted (canonical). Lines are handed to the hash in
 * chunks of about 1 MB: one update per row costs more than the hashing.
 */
function partHash(db: ReadableDB, part: HashPart, p: HashedPeriod): string {
  const h = createHash('sha256');
  for (const chunk of partText(db, part, p)) h.update(chunk);
  return h.digest('hex');
}

/**
 * The text a part's hash is taken over, in chunks of about 1 MB: its name, then each row on a
 * line of its own. The auditor's bundle (bundle.ts) holds exactly this text, so its SHA-256 is
 * the part's hash with no cache at hand.
 */
export function* partText(db: ReadableDB, part: HashPart, p: HashedPeriod): Generator<string> {
  let chunk = `${part.name}\n`;
  for (const row of part.rows(db, p)) {
    chunk += `${Array.isArray(row) ? JSON.stringify(row) : canonical(row)}\n`;
    if (chunk.length > 1_000_000) {
      yield chunk;
      chunk = '';
    }
  }
  yield chunk;
}

/** The period's hash from its parts' hashes (in the order the close names them): what a bundle's check recomputes. */
export function hashOfParts(p: Pick<HashedPeriod, 'wallets' | 'from' | 'to'>, parts: Record<string, string>): string {
  return createHash('sha256')
    .update(canonical({ wallets: [...p.wallets].sort(), from: p.from, to: p.to, parts: Object.entries(parts) }))
    .digest('hex');
}

/** The period's hash over `names` (default: every part), with each part's hash. A name no part has any more hashes as missing. */
export function periodHash(db: ReadableDB, p: HashedPeriod, names?: readonly string[]): { hash: string; parts: Record<string, string> } {
  const parts: Record<string, string> = {};
  for (const name of names ?? HASH_PARTS.map((x) => x.name)) {
    const part = partNamed(name);
    parts[name] = part ? partHash(db, part, p) : 'missing';
  }
  return { hash: hashOfParts(p, parts), parts };
}
