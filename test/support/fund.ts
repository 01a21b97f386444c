/**
 * A fund administrator's cache, written straight into SQLite as a sync would file it: `wallets`
 * wallets, each watched on `chains` chains, with the reference service's three position views of
 * each member at one date (src/sim: the same positions, balances and lending legs it serves).
 * Shared by the CLI's paging test and `npm run bench -- portfolio` (issue 40 item 2). Free of
 * vitest, so a benchmark can load it.
 */
import { insertSnapshots, type SnapshotInput } from '../../src/main/core/positions/store/snapshots.ts';
import type { WritableDB } from '../../src/main/core/store/db.ts';
import { addWallet } from '../../src/main/core/store/wallets.ts';
import type { SnapshotEndpoint } from '../../src/shared/model.ts';
import { successMessage } from '../../src/shared/service/endpoints.ts';
import { liquiditySnapshot, positionSnapshot, underlyingSnapshot } from '../../src/shared/service/schemas.ts';
import { CHAINS } from '../../src/sim/chains.ts';
import { DAY_MS, positionsOn } from '../../src/sim/positions.ts';
import { defaultHistory } from '../../src/sim/transactions.ts';
import { allPositionsView, byUnderlyingView, liquidityView } from '../../src/sim/views.ts';

export interface Fund {
  wallets: number;
  chains: number;
  date: string;
  /** Members (wallet × chain) left without any snapshot: not cached at the date. */
  notCached?: number;
}

/** The `i`-th wallet of a fund: a distinct EVM address. */
export const fundWallet = (i: number) => '0x' + (i + 1).toString(16).padStart(8, '0') + 'f'.repeat(32);

/** Writes the fund into `db` (a cache opened with openDatabase); returns the positions filed. */
export function seedFund(db: WritableDB, fund: Fund): { members: number; positions: number } {
  const chains = CHAINS.slice(0, fund.chains);
  if (chains.length < fund.chains) throw new Error(`the simulator knows ${CHAINS.length} chains, not ${fund.chains}`);
  // A short history per member: balances follow the transactions, which the fund does not need many of.
  const history = defaultHistory(11, 60);
  const day = Date.parse(`${fund.date}T00:00:00Z`) / DAY_MS;
  let positions = 0;
  let members = 0;
  const cachedMembers = fund.wallets * chains.length - (fund.notCached ?? 0);
  const at = `${fund.date}T00:00:00Z`;
  db.transaction(() => {
    for (let w = 0; w < fund.wallets; w++) {
      const wallet = fundWallet(w);
      addWallet(db, { address: wallet, chains: chains.map((c) => c.id), label: `Fund wallet ${w + 1}` });
      for (const chain of chains) {
        // The last members of the fund are the ones not cached.
        if (members++ >= cachedMembers) continue;
        const model = positionsOn(history, wallet, chain, day);
        const views: Array<SnapshotInput<SnapshotEndpoint>> = [
          input('allPositions', wallet, chain.id, fund.date, [
            positionSnapshot.parse({ wallet_id: wallet, date: at, positions: allPositionsView(chain.id, model) }),
          ]),
          input('positionsByUnderlying', wallet, chain.id, fund.date, [
            underlyingSnapshot.parse({ wallet_id: wallet, date: at, positions: byUnderlyingView(chain.id, model) }),
          ]),
          input('liquidityAnalysis', wallet, chain.id, fund.date, [
            liquiditySnapshot.parse({ wallet_id: wallet, date: at, positions: liquidityView(chain.id, model) }),
          ]),
        ];
        positions += model.length;
        insertSnapshots(db, views);
      }
    }
  }).immediate();
  return { members, positions };
}

function input<E extends SnapshotEndpoint>(endpoint: E, wallet: string, chain: string, date: string, data: unknown[]): SnapshotInput<E> {
  const requestId = `fund-${wallet.slice(2, 10)}-${chain}`;
  return {
    endpoint,
    wallet,
    chain,
    requestedDate: date,
    response: {
      data: data as never,
      requestId,
      body: JSON.stringify({ status: 'OK', data, message: successMessage(endpoint, requestId) }),
      fetchedAt: `${date}T06:00:00.000Z`,
    },
  };
}
