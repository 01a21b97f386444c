import type { WalletStatus } from '../../../shared/contract.ts';
import { ago } from './format.ts';

export type FreshnessLevel = 'fresh' | 'stale' | 'failed' | 'offline' | 'never';

/** One line on how current a wallet's cache is, for the sidebar. */
export function freshness(status: WalletStatus | undefined, offline: boolean, now = Date.now()): { level: FreshnessLevel; text: string } {
  if (!status) return { level: 'never', text: 'Not synced yet' };
  if (status.lastError) return { level: 'failed', text: `Sync failed: ${status.lastError.message}` };
  const times = [status.positionsFetchedAt, status.transactionsSyncedAt].filter((t): t is string => !!t).sort();
  const last = times.at(-1);
  if (!last) return { level: 'never', text: 'Not synced yet' };
  if (offline) return { level: 'offline', text: `Offline — cached ${ago(last, now)}` };
  const hours = (now - Date.parse(last)) / 3_600_000;
  const incomplete = status.incomplete ? ' · recent transactions still indexing' : '';
  return { level: hours < 24 && !status.incomplete ? 'fresh' : 'stale', text: `Synced ${ago(last, now)}${incomplete}` };
}
