/**
 * Chain names an address-book file may use, mapped to the service's chain ids. The service's
 * ids are its own (service-spec.md leaves them open; the reference service uses eth, arb, op,
 * base, matic, bsc); files from elsewhere name chains by EIP-3770 short names (`eth:0x…`, the
 * registry of ethereum-lists/chains) or, in Safe's address book, by numeric chain id. A chain
 * not mapped here and not one of the app's chains (Settings) is refused with the row's number.
 */
import { refusal } from '../store/validation.ts';

const SHORT_NAMES: Readonly<Record<string, string>> = {
  eth: 'eth',
  arb1: 'arb',
  oeth: 'op',
  base: 'base',
  matic: 'matic',
  pol: 'matic',
  bnb: 'bsc',
};

/** EIP-155 chain ids, as Safe's address book CSV writes them. */
const CHAIN_IDS: Readonly<Record<string, string>> = {
  '1': 'eth',
  '42161': 'arb',
  '10': 'op',
  '8453': 'base',
  '137': 'matic',
  '56': 'bsc',
};

/**
 * The service's chain id a file's chain name stands for: one of `known` (the app's chains) as
 * written, an EIP-3770 short name, or (`numeric`) an EIP-155 id; null when none.
 */
export function resolveChain(name: string, known: readonly string[], options: { numeric?: boolean } = {}): string | null {
  const n = name.trim();
  if (known.includes(n)) return n;
  const lower = n.toLowerCase();
  if (Object.hasOwn(SHORT_NAMES, lower)) return SHORT_NAMES[lower]!;
  if (options.numeric !== false && Object.hasOwn(CHAIN_IDS, n)) return CHAIN_IDS[n]!;
  return null;
}

/** The names a file may use, for an error that says what would have been read. */
export function knownChainNames(known: readonly string[]): string {
  return [...new Set([...known, ...Object.keys(SHORT_NAMES)])].join(', ');
}

/**
 * The service's chain id a file's chain name stands for (resolveChain), or a ValidationError
 * naming the names a file may use: the row-by-row reason of the address book's and the wallets'
 * CSV imports alike.
 */
export function chainOrRefuse(name: string, known: readonly string[], numeric: boolean): string {
  const id = resolveChain(name, known, { numeric });
  if (!id) throw refusal('chains', 'chains.unknown', { chain: name.slice(0, 20), known: knownChainNames(known), numeric });
  return id;
}
