import type { Wallet, WalletGroup } from '../../../shared/model.ts';
import { call, on } from './api.ts';
import { route } from './route.svelte.ts';
import { appState } from './store.svelte.ts';

/**
 * Wallet groups (entities) and the scope every view shows: one wallet (`wallet=` in the URL),
 * a group's members (`group=ID`), or all watched wallets. Loaded once and again whenever the
 * wallets or groups change (`data.changed` with scope `wallets`).
 */
class GroupsState {
  #list = $state<WalletGroup[]>([]);
  #loaded = $state(false);
  #started = false;

  get list(): WalletGroup[] {
    return this.#list;
  }

  get loaded(): boolean {
    return this.#loaded;
  }

  /** Loads the groups, and keeps them current from then on. */
  start(): void {
    if (this.#started) return;
    this.#started = true;
    void this.reload();
    on('data.changed', (change) => {
      if (change.scope === 'wallets' || change.scope === 'mode') void this.reload();
    });
  }

  async reload(): Promise<void> {
    let next: WalletGroup[];
    try {
      next = await call('groups.list', undefined);
    } catch {
      next = [];
    }
    // The same list again changes nothing: the views' loads depend on it.
    if (JSON.stringify(next) !== JSON.stringify(this.#list)) this.#list = next;
    this.#loaded = true;
  }

  /** The group in the URL (when no wallet is picked), once the groups are loaded. */
  get current(): WalletGroup | null {
    if (route.current.wallet || !route.current.group) return null;
    return this.#list.find((g) => String(g.id) === route.current.group) ?? null;
  }
}

export const groupsState = new GroupsState();

export interface ViewScope {
  /** The watched wallets the view covers. */
  wallets: readonly Wallet[];
  /** One wallet picked, or null. */
  wallet: string | null;
  /** The group picked, or null. */
  group: WalletGroup | null;
  /** The scope as operations take it: `{ wallet }`, `{ group }` or nothing (all wallets). */
  request: { wallet?: string; group?: number };
}

/** What the views show: one wallet, a group's members, or every watched wallet. */
export function viewScope(): ViewScope {
  const wallet = route.current.wallet;
  const group = groupsState.current;
  if (wallet) return { wallets: appState.wallets.filter((w) => w.address === wallet), wallet, group: null, request: { wallet } };
  if (group) return { wallets: appState.wallets.filter((w) => group.wallets.includes(w.address)), wallet: null, group, request: { group: group.id } };
  return { wallets: appState.wallets, wallet: null, group: null, request: {} };
}
