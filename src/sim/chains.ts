/**
 * The simulator's chain identifiers (service-spec.md leaves the service's own ids
 * open; DESIGN.md treats them as opaque strings and uses these as demo defaults).
 * Every chain here is EVM-style: wallets are 0x-prefixed 40-hex addresses.
 */
export interface ChainInfo {
  id: string;
  name: string;
  nativeSymbol: string;
  nativeName: string;
  /** Seconds between blocks, and a reference block, to map times to block numbers. */
  blockTime: number;
  refBlock: number;
  refTime: number;
}

const REF_TIME = Date.UTC(2024, 0, 1) / 1000;

export const CHAINS: readonly ChainInfo[] = [
  { id: 'eth', name: 'Ethereum', nativeSymbol: 'ETH', nativeName: 'Ether', blockTime: 12, refBlock: 18_908_895, refTime: REF_TIME },
  { id: 'arb', name: 'Arbitrum One', nativeSymbol: 'ETH', nativeName: 'Ether', blockTime: 0.25, refBlock: 166_769_826, refTime: REF_TIME },
  { id: 'op', name: 'Optimism', nativeSymbol: 'ETH', nativeName: 'Ether', blockTime: 2, refBlock: 114_460_565, refTime: REF_TIME },
  { id: 'base', name: 'Base', nativeSymbol: 'ETH', nativeName: 'Ether', blockTime: 2, refBlock: 8_865_270, refTime: REF_TIME },
  { id: 'matic', name: 'Polygon', nativeSymbol: 'POL', nativeName: 'Polygon Ecosystem Token', blockTime: 2.1, refBlock: 51_852_011, refTime: REF_TIME },
  { id: 'bsc', name: 'BNB Smart Chain', nativeSymbol: 'BNB', nativeName: 'BNB', blockTime: 3, refBlock: 34_917_230, refTime: REF_TIME },
];

export const CHAIN_IDS: readonly string[] = CHAINS.map((c) => c.id);

export function chainById(id: string): ChainInfo | undefined {
  return CHAINS.find((c) => c.id === id);
}

export function blockAt(chain: ChainInfo, unixSeconds: number): number {
  return Math.max(0, Math.floor(chain.refBlock + (unixSeconds - chain.refTime) / chain.blockTime));
}
