import type { ReadableDB } from '../../store/db.ts';
import { latestSnapshots, snapshotData } from '../../positions/index.ts';
import { addressKey } from '../../store/address-key.ts';
import type { PositionSnapshot } from '../../../../shared/service/schemas.ts';
import { lendingFigures } from '../../../../shared/portfolio/lending.ts';
import type { HealthHistory } from '../../../../shared/model.ts';

/**
 * A lending position's ratio over the cached dates, from cached all-positions snapshots. The
 * risk at one date (lending positions, unlocks) is the portfolio view's (core/portfolio/risk.ts).
 */

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
