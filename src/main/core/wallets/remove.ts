/**
 * A wallet removed, with its cached data when asked: the wallets table is the open store's, the
 * snapshots positions' and the history the transactions', so the removal is put together here,
 * above all three, as one transaction (store/wallets.ts runs `purge` inside it).
 */
import type { WritableDB } from '../store/handles.ts';
import { removeWallet as removeWatched } from '../store/wallets.ts';
import { purgeWalletSnapshots } from '../positions/index.ts';
import { purgeWalletHistory } from '../transactions/index.ts';

export function removeWallet(db: WritableDB, address: string, options: { purge?: boolean } = {}): boolean {
  return removeWatched(db, address, {
    purge: options.purge
      ? (wallet) => {
          purgeWalletSnapshots(db, wallet);
          purgeWalletHistory(db, wallet);
        }
      : undefined,
  });
}
