import type { ReadableDB } from '../db.ts';
import { latestSnapshots, snapshotData } from './latest.ts';
import { checkDate } from '../validation.ts';
import { addressKey } from '../address-key.ts';
import { listWallets } from '../wallets.ts';
import type { PositionSnapshot } from '../../../../shared/service/schemas.ts';
import { lendingFigures, lendingLegs, riskLeg } from '../../../../shared/portfolio/lending.ts';
import type { HealthHistory, LendingRisk, RiskOverview, UnlockLadder, UnlockRow } from '../../../../shared/model.ts';

/**
 * Risk figures from cached all-positions snapshots: lending positions with their ratio and
 * threshold (headroom is computed from those alone, src/shared/headroom.ts), a position's
 * ratio over the cached dates, and upcoming unlocks. Scope: a set of watched wallets.
 */

function scopeWallets(db: ReadableDB, wallets?: readonly string[]) {
  const all = listWallets(db);
  return wallets ? all.filter((w) => wallets.includes(w.address)) : all;
}

function snapshotsAt(db: ReadableDB, date: string, wallets?: readonly string[]) {
  const scope = scopeWallets(db, wallets);
  const rows = latestSnapshots(db, 'allPositions', { date }).filter((r) => scope.some((w) => w.address === r.wallet && w.chains.includes(r.chain)));
  const missing = scope.flatMap((w) =>
    w.chains.filter((c) => !rows.some((r) => r.wallet === w.address && r.chain === c)).map((chain) => ({ wallet: w.address, chain })),
  );
  return { rows, missing };
}

export function lendingRisk(db: ReadableDB, date: string, wallets?: readonly string[]): RiskOverview {
  checkDate('date', date);
  const { rows, missing } = snapshotsAt(db, date, wallets);
  const positions: LendingRisk[] = [];
  const unknown: RiskOverview['unknown'] = [];
  for (const r of rows) {
    for (const snap of snapshotData<'allPositions'>(db, r.id) as PositionSnapshot[]) {
      for (const p of snap.positions) {
        if (!riskLeg(p) && p.asset_type !== 'lending') continue;
        const { ratio, liqThreshold: threshold } = lendingFigures(p);
        if (ratio === null || threshold === null) {
          unknown.push({ wallet: r.wallet, chain: r.chain, name: p.name, reason: ratio === null ? 'no collateral_debt_ratio' : 'no liq_threshold' });
          continue;
        }
        const { collateral, debt, collateralNav, debtNav } = lendingLegs(p);
        positions.push({
          wallet: r.wallet,
          chain: r.chain,
          protocolId: p.protocol_id,
          cid: p.cid,
          name: p.name,
          collateralDebtRatio: ratio,
          liqThreshold: threshold,
          // A token's share of the collateral's value; 1 when the values are not known (a conservative reading: the smallest fall).
          collateral: collateral.map((u) => ({
            tokenId: u.internal_id,
            symbol: u.symbol,
            qty: u.qty,
            nav: u.nav,
            share: collateralNav && u.nav !== null ? u.nav / collateralNav : 1,
          })),
          debt: debt.map((u) => ({ tokenId: u.internal_id, symbol: u.symbol, qty: u.qty, nav: u.nav })),
          collateralNav,
          debtNav,
        });
      }
    }
  }
  return { date, positions, unknown, missing };
}

/** A lending position's ratio and threshold over every cached date (oldest first). */
export function healthHistory(db: ReadableDB, q: { wallet: string; chain: string; cid: string }): HealthHistory {
  const points: HealthHistory['points'] = [];
  let name: string | null = null;
  for (const r of latestSnapshots(db, 'allPositions', { wallet: q.wallet }).filter((x) => x.chain === q.chain)) {
    for (const snap of snapshotData<'allPositions'>(db, r.id) as PositionSnapshot[]) {
      const p = snap.positions.find((x) => x.cid === q.cid);
      if (!p) continue;
      name = p.name ?? name;
      const { ratio, liqThreshold } = lendingFigures(p);
      points.push({ date: r.as_of, collateralDebtRatio: ratio, liqThreshold });
    }
  }
  return { wallet: addressKey(q.wallet), chain: q.chain, cid: q.cid, name, points };
}

/** Locked tokens whose unlock time is on or after the date, soonest first. */
export function unlockLadder(db: ReadableDB, date: string, wallets?: readonly string[]): UnlockLadder {
  checkDate('date', date);
  const { rows, missing } = snapshotsAt(db, date, wallets);
  const unlocks: UnlockRow[] = [];
  for (const r of rows)
    for (const snap of snapshotData<'allPositions'>(db, r.id) as PositionSnapshot[])
      for (const p of snap.positions)
        for (const u of p.underlying) {
          const at = u.details['unlock_time'];
          if (typeof at !== 'string' || at.slice(0, 10) < date) continue;
          const vp = u.details['voting_power'];
          unlocks.push({
            wallet: r.wallet,
            chain: r.chain,
            protocolId: p.protocol_id,
            position: p.name,
            tokenId: u.internal_id,
            symbol: u.symbol,
            unlockTime: at,
            qty: u.qty,
            nav: u.nav,
            votingPower: typeof vp === 'number' ? vp : null,
          });
        }
  unlocks.sort((a, b) => a.unlockTime.localeCompare(b.unlockTime) || a.wallet.localeCompare(b.wallet));
  return { date, unlocks, missing };
}
