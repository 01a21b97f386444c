/**
 * The operations of the watched wallets and their groups, and each wallet's freshness (when its
 * positions and transactions were last fetched, and what is not proved complete).
 */
import type { WalletStatus } from '../../../shared/contract.ts';
import type { JobInfo } from '../../../shared/model.ts';
import type { Handlers, ScopeContext } from '../handlers.ts';
import { listAnomalies } from '../service/index.ts';
import { addressKey } from '../store/address-key.ts';
import type { ReadableDB, WritableDB } from '../store/db.ts';
import { listGroups, removeGroup, saveGroup } from '../store/groups.ts';
import { addWallet, listWallets, updateWallet } from '../store/wallets.ts';
import { removeWallet } from './remove.ts';
import { walletCacheSummary } from '../sync/index.ts';
import { incompleteReasons } from '../transactions/index.ts';

export interface WalletContext extends ScopeContext {
  writable(): WritableDB;
  /** The jobs of the cache open now (a wallet's last failure). */
  jobs(): JobInfo[];
  changed(change: 'wallets.added' | 'wallets.removed' | 'wallets.edited', wallet?: string): void;
}

type WalletOperations =
  'wallets.list' | 'wallets.add' | 'wallets.update' | 'wallets.remove' | 'wallets.status' | 'groups.list' | 'groups.save' | 'groups.remove';

export function walletHandlers(c: WalletContext): Pick<Handlers, WalletOperations> {
  return {
    'wallets.list': () => listWallets(c.db()),
    'wallets.add': (input) => {
      const w = addWallet(c.writable(), input);
      c.changed('wallets.added', w.address);
      return w;
    },
    'wallets.update': ({ address, ...changes }) => {
      const w = updateWallet(c.writable(), address, changes);
      c.changed('wallets.edited', w.address);
      return w;
    },
    'wallets.remove': ({ address, purge }) => {
      const removed = removeWallet(c.writable(), address, { purge: purge ?? false });
      c.changed(removed ? 'wallets.removed' : 'wallets.edited', addressKey(address));
      return removed;
    },
    'wallets.status': () => walletStatuses(c.db(), c.jobs()),
    'groups.list': () => listGroups(c.db()),
    'groups.save': (input) => {
      const g = saveGroup(c.writable(), input);
      c.changed('wallets.edited');
      return g;
    },
    'groups.remove': ({ id }) => {
      const removed = removeGroup(c.writable(), id);
      c.changed('wallets.edited');
      return removed;
    },
  };
}

function walletStatuses(db: ReadableDB, jobs: JobInfo[]): WalletStatus[] {
  return listWallets(db).map((w) => {
    const cache = walletCacheSummary(db, w.address);
    const last = jobs.filter((j) => j.wallet === w.address && j.finishedAt).at(-1);
    const anomalies = listAnomalies(db, { wallet: w.address, openOnly: true });
    return {
      address: w.address,
      positionsFetchedAt: cache.positionsFetchedAt,
      transactionsSyncedAt: cache.transactionsSyncedAt,
      latestDate: cache.latestDate,
      incomplete: cache.openRanges > 0 || anomalies.length > 0,
      incompleteReasons: [...incompleteReasons(db, w.address), ...anomalies.map((a) => `${a.chain ?? 'service'}: ${a.detail}`)],
      lastError: last?.state === 'failed' ? last.error : null,
    };
  });
}
