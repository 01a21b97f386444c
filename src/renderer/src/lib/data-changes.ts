/**
 * The core's `data.changed` events inside the renderer: the store forwards each one here, and
 * a loader whose data a change touches loads again. A change names what changed (its scope)
 * and, when it is one wallet's, which wallet; a view names the wallets and kinds of data it
 * reads, so a sync of one wallet reloads only the views that show it.
 */
import type { DataChanged } from '../../../shared/contract.ts';

export type ChangeKind = DataChanged['scope'];

/** What a view's data is read from: some wallets, or every watched wallet ('all'), and which kinds of data. */
export interface Reads {
  wallets: readonly string[] | 'all';
  kinds: readonly ChangeKind[];
}

/**
 * Whether a change touches data read as `reads` says. A new connection or new settings
 * touch everything; a change that names no wallet (a cache clear, a group edit) touches
 * every wallet of its kind.
 */
export function touches(change: DataChanged, reads: Reads): boolean {
  if (change.scope === 'mode' || change.scope === 'settings') return true;
  if (!reads.kinds.includes(change.scope)) return false;
  if (!change.wallet || reads.wallets === 'all') return true;
  const wallet = change.wallet.toLowerCase();
  return reads.wallets.some((w) => w.toLowerCase() === wallet);
}

class DataChanges {
  #listeners = new Set<(change: DataChanged) => void>();

  /** Calls `listener` with every change from now on; returns the unsubscribe. */
  listen(listener: (change: DataChanged) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Tells every listener what changed (the store calls this with the core's events). */
  announce(change: DataChanged): void {
    for (const l of [...this.#listeners]) l(change);
  }
}

export const dataChanges = new DataChanges();
