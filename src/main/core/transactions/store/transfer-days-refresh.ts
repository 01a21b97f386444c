/**
 * The explicit writer of the daily transfer sums for watched wallets (transactions/store/transfer-days.ts):
 * what the core runs, where it can write, before a reconciliation or a report that reconciles
 * reads them. Apart from transfer-days.ts because the write worker loads that module, and this
 * one reads the wallets list (whose module the worker's plain Node type stripping cannot load).
 */
import type { WritableDB } from '../../store/db.ts';
import { refreshTransferDays } from './transfer-days.ts';
import { getWallet, listWallets } from '../../store/wallets.ts';

/** Brings the sums of every chain of these wallets (all watched wallets when omitted; an address not watched is passed over) up to date. Returns the rows read. */
export function refreshTransferDaysFor(db: WritableDB, wallets?: readonly string[]): number {
  const watched = wallets ? wallets.map((a) => getWallet(db, a)).filter((w) => w !== null && w !== undefined) : listWallets(db);
  return refreshTransferDays(
    db,
    watched.flatMap((w) => w.chains.map((chain) => ({ wallet: w.address, chain }))),
  );
}
