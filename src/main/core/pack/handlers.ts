/**
 * The monthly pack's operation: a scope over a month (YYYY-MM) or two cached dates.
 */
import type { Handlers, ScopeContext } from '../handlers.ts';
import { getGroup } from '../store/groups.ts';
import { ValidationError } from '../store/validation.ts';
import { monthPeriod, scopeNameOf, scopePack } from './pack.ts';

export interface PackContext extends ScopeContext {
  /** Brings the daily transfer sums of these wallets up to date (the writer's side; absent when read-only). */
  keepTransferDays?: ((wallets: readonly string[]) => void) | undefined;
}

/** A pack's period and scope as asked: a month, or from and to. */
export function packPeriod(input: { month?: string | undefined; from?: string | undefined; to?: string | undefined }): { from: string; to: string } {
  if (input.month) {
    if (input.from || input.to) throw new ValidationError('month', 'Give a month, or a from and a to date, not both.');
    return monthPeriod(input.month);
  }
  if (!input.from || !input.to) throw new ValidationError('month', 'Give a month (YYYY-MM), or a from and a to date.');
  return { from: input.from, to: input.to };
}

export function packHandlers(c: PackContext): Pick<Handlers, 'pack.get'> {
  return {
    'pack.get': ({ wallet, group, ...period }) => {
      const { from, to } = packPeriod(period);
      const wallets = c.scopeWallets(wallet, group);
      c.keepTransferDays?.(wallets.map((w) => w.address));
      return scopePack(c.db(), {
        wallets,
        from,
        to,
        scope: scopeNameOf({ group: group === undefined ? undefined : getGroup(c.db(), group), wallet: wallet ? c.wallet(wallet) : undefined }),
      });
    },
  };
}
