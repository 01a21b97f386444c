import type { Position } from '../../../../shared/service/schemas.ts';
import type { ReadableDB } from '../db.ts';
import { getWallet } from '../wallets.ts';
import { ValidationError } from '../validation.ts';
import { freshnessOf, latestSnapshots, snapshotData } from './latest.ts';
import type { PositionSide, PositionChange, DateDiff } from '../../../../shared/model.ts';

export class NotCachedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotCachedError';
  }
}

const keyOf = (chain: string, p: Position) => `${chain}:${p.cid ?? `${p.protocol_id}:${p.name}`}`;
const side = (p: Position): PositionSide => ({ name: p.name, symbol: p.symbol, principalNav: p.principal_nav, rewardNav: p.reward_nav });
const n = (v: number | null | undefined) => v ?? 0;

/** What changed in a wallet's positions between two cached dates, split into principal and reward. */
export function diffDates(db: ReadableDB, walletAddress: string, from: string, to: string): DateDiff {
  const wallet = getWallet(db, walletAddress);
  if (!wallet) throw new ValidationError('wallet', `${walletAddress} is not a watched wallet.`);
  const before = latestSnapshots(db, 'allPositions', { wallet: wallet.address, date: from });
  const after = latestSnapshots(db, 'allPositions', { wallet: wallet.address, date: to });
  const missing: DateDiff['missing'] = [];
  const chains: string[] = [];
  for (const chain of wallet.chains) {
    const a = before.some((r) => r.chain === chain);
    const b = after.some((r) => r.chain === chain);
    if (a && b) chains.push(chain);
    if (!a) missing.push({ chain, date: from });
    if (!b) missing.push({ chain, date: to });
  }
  if (!chains.length) throw new NotCachedError(`No chain of ${wallet.label || wallet.address} is cached at both ${from} and ${to}; fetch those dates first.`);

  const positionsAt = (rows: typeof before) => {
    const map = new Map<string, { chain: string; p: Position }>();
    for (const r of rows) {
      if (!chains.includes(r.chain)) continue;
      for (const snap of snapshotData<'allPositions'>(db, r.id)) for (const p of snap.positions) map.set(keyOf(r.chain, p), { chain: r.chain, p });
    }
    return map;
  };
  const a = positionsAt(before);
  const b = positionsAt(after);
  const result: DateDiff = {
    wallet: wallet.address,
    from,
    to,
    opened: [],
    closed: [],
    changed: [],
    unchanged: 0,
    principalChange: 0,
    rewardChange: 0,
    totalChange: 0,
    chains,
    missing,
    freshness: { from: freshnessOf(before), to: freshnessOf(after) },
  };
  for (const key of new Set([...a.keys(), ...b.keys()])) {
    const x = a.get(key);
    const y = b.get(key);
    const ref = (y ?? x)!;
    const change: PositionChange = {
      key,
      chain: ref.chain,
      cid: ref.p.cid,
      assetType: ref.p.asset_type,
      protocolId: ref.p.protocol_id,
      before: x ? side(x.p) : null,
      after: y ? side(y.p) : null,
      principalChange: n(y?.p.principal_nav) - n(x?.p.principal_nav),
      rewardChange: n(y?.p.reward_nav) - n(x?.p.reward_nav),
    };
    result.principalChange += change.principalChange;
    result.rewardChange += change.rewardChange;
    if (!x) result.opened.push(change);
    else if (!y) result.closed.push(change);
    else if (change.principalChange !== 0 || change.rewardChange !== 0) result.changed.push(change);
    else result.unchanged++;
  }
  result.totalChange = result.principalChange + result.rewardChange;
  const byMagnitude = (p: PositionChange, q: PositionChange) => Math.abs(q.principalChange + q.rewardChange) - Math.abs(p.principalChange + p.rewardChange);
  result.opened.sort(byMagnitude);
  result.closed.sort(byMagnitude);
  result.changed.sort(byMagnitude);
  return result;
}
