/**
 * Many watched wallets edited in one step (issue 40, item 1): tags, chains and groups added or
 * taken away, or the wallets removed. One transaction: a wallet the edit cannot apply to (not
 * watched, left without a chain, an address its new chains write otherwise) refuses the whole
 * edit with its address, and nothing changes. Each wallet's change is its own audited edit, as
 * one made by hand would be.
 */
import type { WalletBulkEdit, WalletBulkResult } from '../../../shared/contract.ts';
import type { Wallet } from '../../../shared/model.ts';
import type { WritableDB } from '../store/handles.ts';
import { listGroups, saveGroup } from '../store/groups.ts';
import { getWallet, updateWallet } from '../store/wallets.ts';
import { refusal, ValidationError } from '../store/validation.ts';
import { removeWallet } from './remove.ts';

const lower = (s: string) => s.toLowerCase();

/** The wallet's tags, chains after the edit (tags compared without case, as a user reads them). */
function edited(w: Wallet, e: WalletBulkEdit): { tags: string[]; chains: string[] } {
  const dropTags = new Set((e.removeTags ?? []).map((t) => lower(t.trim())));
  const tags = w.tags.filter((t) => !dropTags.has(lower(t)));
  for (const t of e.addTags ?? []) if (t.trim() && !tags.some((x) => lower(x) === lower(t.trim()))) tags.push(t.trim());
  const dropChains = new Set(e.removeChains ?? []);
  const chains = w.chains.filter((c) => !dropChains.has(c));
  for (const c of e.addChains ?? []) if (!chains.includes(c)) chains.push(c);
  return { tags, chains };
}

export function bulkEditWallets(db: WritableDB, e: WalletBulkEdit): WalletBulkResult {
  const found = e.addresses.map((a) => ({ asked: a, wallet: getWallet(db, a) }));
  const unknown = found.filter((f) => !f.wallet).map((f) => f.asked);
  if (unknown.length) throw refusal('addresses', 'bulk.notWatched', { addresses: unknown.slice(0, 5).join(', '), more: Math.max(0, unknown.length - 5) });
  const wallets = [...new Map(found.map((f) => [f.wallet!.address, f.wallet!])).values()];
  const groupIds = [...new Set([...(e.addToGroups ?? []), ...(e.removeFromGroups ?? [])])];
  const groups = new Set(listGroups(db).map((g) => g.id));
  for (const id of groupIds) if (!groups.has(id)) throw refusal('group', 'bulk.groupMissing', { id });
  const both = (e.addToGroups ?? []).filter((g) => e.removeFromGroups?.includes(g));
  if (both.length) throw refusal('group', 'bulk.groupBoth', { id: both[0]! });
  if (e.remove && (e.addTags?.length || e.removeTags?.length || e.addChains?.length || e.removeChains?.length || groupIds.length))
    throw refusal('remove', 'bulk.removeAndChange', {});

  return db.transaction((): WalletBulkResult => {
    if (e.remove) {
      for (const w of wallets) removeWallet(db, w.address, { purge: e.purge ?? false });
      return { wallets: wallets.length, changed: 0, removed: wallets.length, groupsChanged: 0 };
    }
    let changed = 0;
    for (const w of wallets) {
      const next = edited(w, e);
      if (!next.chains.length) throw refusal('chains', 'bulk.noChain', { address: w.address });
      if (next.tags.join('\n') === w.tags.join('\n') && next.chains.join('\n') === w.chains.join('\n')) continue;
      try {
        updateWallet(db, w.address, next);
      } catch (err) {
        if (err instanceof ValidationError)
          throw refusal(err.field, 'bulk.wallet', { address: w.address, problem: err.message, ...(err.said ? { inner: err.said } : {}) });
        throw err;
      }
      changed++;
    }
    let groupsChanged = 0;
    const members = new Set(wallets.map((w) => w.address));
    for (const g of listGroups(db)) {
      const add = e.addToGroups?.includes(g.id) ?? false;
      const drop = e.removeFromGroups?.includes(g.id) ?? false;
      if (!add && !drop) continue;
      const next = add ? [...g.wallets, ...[...members].filter((m) => !g.wallets.includes(m))] : g.wallets.filter((m) => !members.has(m));
      if (next.length === g.wallets.length) continue;
      saveGroup(db, { id: g.id, name: g.name, wallets: next });
      groupsChanged++;
    }
    return { wallets: wallets.length, changed, removed: 0, groupsChanged };
  })();
}
