/**
 * The operations of the analyses over the cache: a scope's reconciliation over a period, one
 * token's trace (its other ends named from the address book), a lending position's health history.
 */
import type { Handlers, ScopeContext } from '../handlers.ts';
import { nameTrace } from '../ledger/index.ts';
import { healthHistory } from './store/health.ts';
import { checkPeriod, reconcile, reconcileTrace } from './store/reconcile.ts';

export interface AnalyticsContext extends ScopeContext {
  /** Brings the daily transfer sums of these wallets up to date from the writer's side first (a reconciliation only reads). */
  keepTransferDays(wallets: readonly string[]): void;
}

type AnalyticsOperations = 'reconcile.get' | 'reconcile.trace' | 'risk.health';

export function analyticsHandlers(c: AnalyticsContext): Pick<Handlers, AnalyticsOperations> {
  return {
    'reconcile.get': ({ wallet: address, group, from, to }) => {
      const wallets = c.scopeOf(address, group) ?? c.scopeWallets(undefined, undefined).map((w) => w.address);
      checkPeriod(from, to);
      c.keepTransferDays(wallets);
      return reconcile(c.db(), { wallets, from, to });
    },
    'reconcile.trace': ({ wallet: address, chain, tokenCid, from, to }) => {
      const w = c.wallet(address).address;
      // Each row's other end named from the address book (issue 28).
      return nameTrace(c.db(), w, chain, reconcileTrace(c.db(), { wallet: w, chain, tokenCid, from, to }));
    },
    'risk.health': ({ wallet: address, chain, cid }) => healthHistory(c.db(), { wallet: c.wallet(address).address, chain, cid }),
  };
}
