/**
 * Display names of the chains the app knows, shown beside their codes ("arb · Arbitrum One").
 * The service's chain ids are opaque strings (docs/service.md): an unknown id shows as itself.
 */
export const CHAIN_NAMES: Readonly<Record<string, string>> = {
  eth: 'Ethereum',
  arb: 'Arbitrum One',
  op: 'Optimism',
  base: 'Base',
  matic: 'Polygon',
  bsc: 'BNB Smart Chain',
};

export function chainName(id: string | null | undefined): string | null {
  return id ? (CHAIN_NAMES[id] ?? null) : null;
}
