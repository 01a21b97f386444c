/** What a schedule's or an alert rule's scope covers in the cache now. */
import type { ReadableDB } from './db.ts';
import { getGroup } from './groups.ts';
import { getWallet, listWallets } from './wallets.ts';
import type { ScheduleScope, Wallet } from '../../../shared/model.ts';

/** The watched wallets a scope covers now, or why it covers nothing it was made for: its wallet is no longer watched, its group no longer exists. */
export function walletsInScope(db: ReadableDB, scope: ScheduleScope): Wallet[] | string {
  if (scope.kind === 'all') return listWallets(db);
  if (scope.kind === 'wallet') {
    const w = getWallet(db, scope.address);
    return w ? [w] : `${scope.address} is no longer watched`;
  }
  let members: string[];
  try {
    members = getGroup(db, scope.id).wallets;
  } catch {
    return `wallet group ${scope.id} no longer exists`;
  }
  return listWallets(db).filter((w) => members.includes(w.address));
}
