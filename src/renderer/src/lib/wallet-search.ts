import type { Wallet } from '../../../shared/model.ts';
import { chain } from './format.ts';

/**
 * The wallets a typed search finds, in their order: those whose label, address, a tag or a chain
 * (its key or its shown name) contains the text in any case; every wallet for nothing typed. The
 * sidebar and the wallet pickers search the same way, so a wallet found in one is found in all.
 */
export function findWallets(wallets: readonly Wallet[], typed: string): readonly Wallet[] {
  const q = typed.trim().toLowerCase();
  if (!q) return wallets;
  return wallets.filter((x) => [x.label, x.address, ...x.tags, ...x.chains, ...x.chains.map(chain)].some((s) => s.toLowerCase().includes(q)));
}
