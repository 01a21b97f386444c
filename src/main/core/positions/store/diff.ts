import type { Position } from '../../../../shared/service/schemas.ts';
import type { ReadableDB } from '../../store/db.ts';
import { getWallet } from '../../store/wallets.ts';
import { ValidationError } from '../../store/validation.ts';
import { freshnessOf, latestSnapshots, snapshotData } from './latest.ts';
import type { PositionSide, PositionChange, DateDiff } from '../../../../shared/model.ts';
import { decimalSum, decimalSumOrNull } from '../../../../shared/decimal.ts';

export class NotCachedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NotCachedError';
  }
}

const keyOf = (chain: string, p: Position) => `${chain}:${p.cid ?? `${p.protocol_id}:${p.name}`}`;
const side = (p: Position): PositionSide => ({ name: p.name, symbol: p.symbol, principalNav: p.principal_nav, rewardNav: p.reward_nav });
type Member = 'principal_nav' | 'reward_nav';
/**
 * A member's change between two dates, exact in decimal (a change of 0.1 + 0.2 - 0.3 is 0, not
 * 5.55e-17). A side where the position does not exist counts 0 (opened or closed); a side where
 * it exists but the value was not sent or was unreadable makes the change unknown (null): taking
 * it as 0 would report the whole value as gained or lost.
 */
function change(member: Member, after: Position | undefined, before: Position | undefined): number | null {
  const value = (p: Position | undefined) => (p === undefined ? 0 : p._invalid?.[member] !== undefined ? null : p[member]);
  const a = value(after);
  const b = value(before);
  return a === null || b === null ? null : decimalSum([a, -b]);
}

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
    principalChange: null,
    rewardChange: null,
    totalChange: null,
    unknownChanges: 0,
    chains,
    missing,
    freshness: { from: freshnessOf(before), to: freshnessOf(after) },
  };
  const all: PositionChange[] = [];
  for (const key of new Set([...a.keys(), ...b.keys()])) {
    const x = a.get(key);
    const y = b.get(key);
    const ref = (y ?? x)!;
    const c: PositionChange = {
      key,
      chain: ref.chain,
      cid: ref.p.cid,
      assetType: ref.p.asset_type,
      protocolId: ref.p.protocol_id,
      before: x ? side(x.p) : null,
      after: y ? side(y.p) : null,
      principalChange: change('principal_nav', y?.p, x?.p),
      rewardChange: change('reward_nav', y?.p, x?.p),
    };
    if (!x) result.opened.push(c);
    else if (!y) result.closed.push(c);
    else if (c.principalChange !== 0 || c.rewardChange !== 0) result.changed.push(c);
    else result.unchanged++;
    all.push(c);
  }
  result.principalChange = decimalSumOrNull(all.map((c) => c.principalChange));
  result.rewardChange = decimalSumOrNull(all.map((c) => c.rewardChange));
  result.totalChange = decimalSumOrNull([result.principalChange, result.rewardChange]);
  result.unknownChanges = all.filter((c) => c.principalChange === null || c.rewardChange === null).length;
  // Unknown changes sort first: they could be of any size.
  const size = (c: PositionChange) => (c.principalChange === null || c.rewardChange === null ? Infinity : Math.abs(c.principalChange + c.rewardChange));
  const byMagnitude = (p: PositionChange, q: PositionChange) => size(q) - size(p) || 0;
  result.opened.sort(byMagnitude);
  result.closed.sort(byMagnitude);
  result.changed.sort(byMagnitude);
  return result;
}
