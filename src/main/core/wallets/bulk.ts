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
import { ValidationError } from '../store/validation.ts';
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
  if (unknown.length)
    throw new ValidationError(
      'addresses',
      `Not watched: ${unknown.slice(0, 5).join(', ')}${unknown.length > 5 ? ` and ${unknown.length - 5} more` : ''}. Nothing was changed.`,
    );
  const wallets = [...new Map(found.map((f) => [f.wallet!.address, f.wallet!])).values()];
  const groupIds = [...new Set([...(e.addToGroups ?? []), ...(e.removeFromGroups ?? [])])];
  const groups = new Set(listGroups(db).map((g) => g.id));
  for (const id of groupIds) if (!groups.has(id)) throw new ValidationError('group', `There is no wallet group ${id}. Nothing was changed.`);
  const both = (e.addToGroups ?? []).filter((g) => e.removeFromGroups?.includes(g));
  if (both.length) throw new ValidationError('group', `Group ${both[0]} is both added to and removed from: say one. Nothing was changed.`);
  if (e.remove && (e.addTags?.length || e.removeTags?.length || e.addChains?.length || e.removeChains?.length || groupIds.length))
    throw new ValidationError('remove', 'Removing wallets is an edit of its own: remove them, or change them, not both. Nothing was changed.');

  return db.transaction((): WalletBulkResult => {
    if (e.remove) {
      for (const w of wallets) removeWallet(db, w.address, { purge: e.purge ?? false });
      return { wallets: wallets.length, changed: 0, removed: wallets.length, groupsChanged: 0 };
    }
    let changed = 0;
    for (const w of wallets) {
      const next = edited(w, e);
      if (!next.chains.length) throw new ValidationError('chains', `${w.address} would be left on no chain. Nothing was changed.`);
      if (next.tags.join('\n') === w.tags.join('\n') && next.chains.join('\n') === w.chains.join('\n')) continue;
      try {
        updateWallet(db, w.address, next);
      } catch (err) {
        if (err instanceof ValidationError) throw new ValidationError(err.field, `${w.address}: ${err.message} Nothing was changed.`);
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
