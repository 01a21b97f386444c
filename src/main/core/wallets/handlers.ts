/**
 * The operations of the watched wallets and their groups, and each wallet's freshness (when its
 * positions and transactions were last fetched, and what is not proved complete).
 */
import type { WalletStatus } from '../../../shared/contract.ts';
import type { JobInfo } from '../../../shared/model.ts';
import type { Handlers, ScopeContext } from '../handlers.ts';
import { openAnomaliesOf } from '../service/index.ts';
import { addressKey } from '../store/address-key.ts';
import type { ReadableDB, WritableDB } from '../store/db.ts';
import { listGroups, removeGroup, saveGroup } from '../store/groups.ts';
import { addWallet, getWallet, listWallets, updateWallet } from '../store/wallets.ts';
import { checkVersion, lastEdit, versionsOf } from '../store/versions.ts';
import type { Wallet, WalletGroup } from '../../../shared/model.ts';
import { removeWallet } from './remove.ts';
import { bulkEditWallets } from './bulk.ts';
import { planWalletImport, walletsCsv, type WalletImportPlan } from './csv.ts';
import { getSettings } from '../store/settings.ts';
import { walletCacheSummaries } from '../sync/index.ts';
import { incompleteReasonsOf } from '../transactions/index.ts';

export interface WalletContext extends ScopeContext {
  writable(): WritableDB;
  /** The jobs of the cache open now (a wallet's last failure). */
  jobs(): JobInfo[];
  changed(change: 'wallets.added' | 'wallets.removed' | 'wallets.edited' | 'wallets.imported', wallet?: string): void;
}

type WalletOperations =
  | 'wallets.list'
  | 'wallets.add'
  | 'wallets.update'
  | 'wallets.remove'
  | 'wallets.bulkEdit'
  | 'wallets.status'
  | 'wallets.preview'
  | 'wallets.import'
  | 'wallets.export'
  | 'groups.list'
  | 'groups.save'
  | 'groups.remove';

export function walletHandlers(c: WalletContext): Pick<Handlers, WalletOperations> {
  return {
    'wallets.list': () => {
      const db = c.db();
      const versions = versionsOf(db, 'wallet');
      return listWallets(db).map((w) => ({ ...w, version: versions.get(w.address) ?? 0 }));
    },
    'wallets.add': (input) => {
      const w = addWallet(c.writable(), input);
      c.changed('wallets.added', w.address);
      return w;
    },
    'wallets.update': ({ address, expectedVersion, ...changes }) => {
      const db = c.writable();
      // The check and the edit in one transaction, so nobody's edit lands between them.
      const w = db
        .transaction(() => {
          checkWallet(db, address, expectedVersion);
          return withWalletVersion(db, updateWallet(db, address, changes));
        })
        .immediate();
      c.changed('wallets.edited', w.address);
      return w;
    },
    'wallets.remove': ({ address, purge, expectedVersion }) => {
      const db = c.writable();
      const removed = db
        .transaction(() => {
          checkWallet(db, address, expectedVersion);
          return removeWallet(db, address, { purge: purge ?? false });
        })
        .immediate();
      c.changed(removed ? 'wallets.removed' : 'wallets.edited', addressKey(address));
      return removed;
    },
    'wallets.bulkEdit': (input) => {
      const r = bulkEditWallets(c.writable(), input);
      c.changed(r.removed ? 'wallets.removed' : 'wallets.edited');
      return r;
    },
    'wallets.status': () => walletStatuses(c.db(), c.jobs()),
    'wallets.preview': ({ text, replace }) => plan(c.db(), text, replace).preview,
    'wallets.import': ({ text, replace }) => {
      const db = c.writable();
      const p = plan(db, text, replace);
      if (!p.preview.applicable) return p.preview;
      db.transaction(() => applyWalletImport(db, p))();
      c.changed('wallets.imported');
      return { ...p.preview, applied: true };
    },
    'wallets.export': () => {
      const wallets = listWallets(c.db());
      return { csv: walletsCsv(wallets, listGroups(c.db())), count: wallets.length };
    },
    'groups.list': () => {
      const db = c.db();
      const versions = versionsOf(db, 'group');
      return listGroups(db).map((g) => ({ ...g, version: versions.get(String(g.id)) ?? 0 }));
    },
    'groups.save': ({ expectedVersion, ...input }) => {
      const db = c.writable();
      const g = db
        .transaction(() => {
          if (input.id !== undefined) checkGroup(db, input.id, expectedVersion);
          return withGroupVersion(db, saveGroup(db, input));
        })
        .immediate();
      c.changed('wallets.edited');
      return g;
    },
    'groups.remove': ({ id, expectedVersion }) => {
      const db = c.writable();
      const removed = db
        .transaction(() => {
          checkGroup(db, id, expectedVersion);
          return removeGroup(db, id);
        })
        .immediate();
      c.changed('wallets.edited');
      return removed;
    },
  };
}

/** Refuses an edit of a wallet changed since the editor loaded `expected` (store/versions.ts). */
function checkWallet(db: ReadableDB, address: string, expected: number | undefined): void {
  if (expected === undefined) return;
  const w = getWallet(db, address);
  const key = w?.address ?? addressKey(address);
  checkVersion(db, 'wallet', key, w?.label || key, expected);
}

function checkGroup(db: ReadableDB, id: number, expected: number | undefined): void {
  if (expected === undefined) return;
  // A group removed since has no name left here: its number says which.
  const name = listGroups(db).find((g) => g.id === id)?.name ?? `#${id}`;
  checkVersion(db, 'group', String(id), name, expected);
}

const withWalletVersion = (db: ReadableDB, w: Wallet): Wallet => ({ ...w, version: lastEdit(db, 'wallet', w.address).version });
const withGroupVersion = (db: ReadableDB, g: WalletGroup): WalletGroup => ({ ...g, version: lastEdit(db, 'group', String(g.id)).version });

const plan = (db: ReadableDB, text: string, replace: boolean | undefined) =>
  planWalletImport(text, listWallets(db), listGroups(db), getSettings(db).chains, { replace: replace ?? false });

/** Writes a plan (in the caller's transaction): each wallet added or changed as its own audited edit, then the groups joined. */
function applyWalletImport(db: WritableDB, p: WalletImportPlan): void {
  for (const w of p.add) addWallet(db, w);
  for (const w of p.update) updateWallet(db, w.address, { label: w.label, tags: w.tags, chains: w.chains });
  const groups = listGroups(db);
  for (const [name, joining] of p.groups) {
    const g = groups.find((x) => x.name.toLowerCase() === name.toLowerCase());
    saveGroup(db, g ? { id: g.id, name: g.name, wallets: [...new Set([...g.wallets, ...joining])] } : { name, wallets: joining });
  }
}

function walletStatuses(db: ReadableDB, jobs: JobInfo[]): WalletStatus[] {
  // Each part read for every wallet at once: a fund's 1,000 wallets were four statements each,
  // most of a second before its first screen could ask for anything (issue 40).
  const wallets = listWallets(db).map((w) => w.address);
  const caches = walletCacheSummaries(db, wallets);
  const reasons = incompleteReasonsOf(db, wallets);
  const anomaliesOf = openAnomaliesOf(db, wallets);
  const lastJob = new Map<string, JobInfo>();
  for (const j of jobs) if (j.wallet && j.finishedAt) lastJob.set(j.wallet, j);
  return wallets.map((address) => {
    const cache = caches.get(address)!;
    const last = lastJob.get(address);
    const anomalies = anomaliesOf.get(address)!;
    return {
      address,
      positionsFetchedAt: cache.positionsFetchedAt,
      transactionsSyncedAt: cache.transactionsSyncedAt,
      latestDate: cache.latestDate,
      incomplete: cache.openRanges > 0 || anomalies.length > 0,
      incompleteReasons: [...reasons.get(address)!, ...anomalies.map((a) => `${a.chain ?? 'service'}: ${a.detail}`)],
      lastError: last?.state === 'failed' ? last.error : null,
    };
  });
}
