import { createServiceClient } from '../../src/main/core/service/client.ts';
import type { WritableDB } from '../../src/main/core/store/db.ts';
import { addWallet } from '../../src/main/core/store/wallets.ts';
import { SyncEngine } from '../../src/main/core/sync/engine.ts';
import type { Simulator } from '../../src/sim/server.ts';
import { KEY, SIM_NOW, WALLET, WALLET_2 } from '../support/sim.ts';

/** A cache with two wallets: weekly snapshots through 2025 and all transactions. */
export async function fillCache(sim: Simulator, db: WritableDB): Promise<void> {
  // Fixed creation times: wallets list in the order they were added, whatever the clock does.
  addWallet(db, { address: WALLET, chains: ['eth', 'arb'], label: 'Treasury' }, new Date(SIM_NOW));
  addWallet(db, { address: WALLET_2, chains: ['eth'], label: '=HYPERLINK("http://evil.example","x")' }, new Date(SIM_NOW + 1000));
  const client = createServiceClient({ baseUrl: sim.url, accessKey: KEY });
  const engine = new SyncEngine({ db, client, now: () => SIM_NOW });
  await Promise.all([
    engine.backfill({ wallet: WALLET, from: '2025-10-01', to: '2025-12-31', every: 'week' }).result,
    engine.backfill({ wallet: WALLET_2, from: '2025-10-01', to: '2025-12-31', every: 'week' }).result,
    engine.syncTransactions(WALLET).result,
    engine.syncTransactions(WALLET_2).result,
  ]);
}
