/**
 * Each chain's native coin, as a token impersonating it would name itself (docs/spam.md, "The
 * native coin"). The service's chain ids are opaque (docs/service.md): these are the reference
 * service's and the usual spellings of the same chains; a chain not listed has no native check.
 *
 * The service's data may name the native coin's contract in several ways, all taken as native:
 * no contract at all (null or ''), the `0xeeee…eeee` placeholder (what the reference service
 * sends, as many indexers do), the zero address, the chain id itself (an indexer that names the
 * native coin by its chain), and the few chains whose native coin has a real contract address
 * (Polygon's 0x…1010).
 */
import { comparable } from './text.ts';

interface Native {
  symbols: readonly string[];
  names: readonly string[];
  /** Contract addresses (lower case) that are the native coin on this chain, beside the placeholders every chain shares. */
  contracts?: readonly string[];
}

const ETHER: Native = { symbols: ['ETH'], names: ['ETHER', 'ETHEREUM'] };

const NATIVES: Readonly<Record<string, Native>> = {
  eth: ETHER,
  ethereum: ETHER,
  arb: ETHER,
  arbitrum: ETHER,
  op: ETHER,
  optimism: ETHER,
  base: ETHER,
  linea: ETHER,
  scroll: ETHER,
  era: ETHER,
  zksync: ETHER,
  blast: ETHER,
  matic: {
    symbols: ['POL', 'MATIC'],
    names: ['POLYGON ECOSYSTEM TOKEN', 'MATIC TOKEN', 'POLYGON', 'MATIC'],
    contracts: ['0x0000000000000000000000000000000000001010'],
  },
  polygon: {
    symbols: ['POL', 'MATIC'],
    names: ['POLYGON ECOSYSTEM TOKEN', 'MATIC TOKEN', 'POLYGON', 'MATIC'],
    contracts: ['0x0000000000000000000000000000000000001010'],
  },
  bsc: { symbols: ['BNB'], names: ['BNB', 'BINANCE COIN'] },
  avax: { symbols: ['AVAX'], names: ['AVALANCHE', 'AVAX'] },
  ftm: { symbols: ['FTM'], names: ['FANTOM'] },
  xdai: { symbols: ['XDAI'], names: ['XDAI'] },
  gnosis: { symbols: ['XDAI'], names: ['XDAI'] },
};

const PLACEHOLDERS = new Set(['', '0x' + 'e'.repeat(40), '0x' + '0'.repeat(40)]);

/** The native coin's symbol and names on a chain (compared as `comparable` gives them), or null for a chain not listed. */
export function nativeOf(chain: string): { symbols: readonly string[]; names: readonly string[] } | null {
  const n = NATIVES[chain.toLowerCase()];
  return n ? { symbols: n.symbols, names: n.names } : null;
}

/** Whether a token's contract (as the service names it, any case) is the chain's native coin. */
export function isNativeCid(chain: string, cid: string | null | undefined): boolean {
  const c = (cid ?? '').trim().toLowerCase();
  if (PLACEHOLDERS.has(c) || c === chain.toLowerCase()) return true;
  return NATIVES[chain.toLowerCase()]?.contracts?.includes(c) ?? false;
}

/** Whether a symbol or a name is the chain's native coin's (e.g. ETH or Ether on eth), look-alike letters folded. */
export function claimsNative(chain: string, symbol: string | null | undefined, name: string | null | undefined): string | null {
  const n = nativeOf(chain);
  if (!n) return null;
  const s = comparable(symbol);
  if (s && n.symbols.includes(s)) return n.symbols[0]!;
  const m = comparable(name);
  if (m && n.names.includes(m)) return n.symbols[0]!;
  return null;
}
