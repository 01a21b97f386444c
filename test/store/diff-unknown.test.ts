import { describe, expect, it } from 'vitest';
import { diffDates } from '../../src/main/core/positions/store/diff.ts';
import type { WritableDB } from '../../src/main/core/store/db.ts';
import { insertSnapshot } from '../../src/main/core/positions/store/snapshots.ts';
import { addWallet } from '../../src/main/core/store/wallets.ts';
import { positionSnapshot, recoverBadValues } from '../../src/shared/service/schemas.ts';
import { createDB } from '../support/store.ts';

/**
 * A comparison of two dates where a value is unreadable (or not sent) at one of them: the change
 * is unknown, never "minus the whole value", and the sums say what they leave out.
 */
const wallet = '0x' + 'cd'.repeat(20);

function snapshot(db: WritableDB, date: string, positions: Array<Record<string, unknown>>): void {
  // Written as the service would send it; the unreadable value is a string the parser refuses.
  const body = JSON.stringify({ status: 'OK', message: 'ok', data: [{ wallet_id: wallet, date: `${date}T00:00:00Z`, positions }] });
  // As the client reads it: an unreadable value is nulled and flagged in `_invalid`.
  const json = JSON.parse(body).data[0];
  const first = positionSnapshot.safeParse(json);
  if (!first.success) expect(recoverBadValues(json, first.error.issues)).not.toBeNull();
  const data = [positionSnapshot.parse(json)];
  const response = {
    endpoint: 'allPositions' as const,
    data,
    message: 'ok',
    requestId: date,
    total: null,
    body,
    url: '',
    fetchedAt: `${date}T01:00:00.000Z`,
    attempts: 1,
  };
  insertSnapshot(db, { endpoint: 'allPositions', wallet, chain: 'eth', requestedDate: date, response });
}

const pos = (cid: string, principal: unknown, reward: unknown) => ({
  cid,
  name: cid,
  protocol_id: 'wallet',
  asset_type: 'wallet',
  principal_nav: principal,
  reward_nav: reward,
  underlying: [],
});

describe('a comparison with an unknown value', () => {
  it('an unreadable principal at the later date is an unknown change, left out of the sums and counted', () => {
    const db = createDB();
    addWallet(db, { address: wallet, chains: ['eth'] });
    snapshot(db, '2025-01-01', [pos('a', 100.1, 1), pos('b', 50, 0), pos('c', 10, 0)]);
    snapshot(db, '2025-02-01', [pos('a', 'n/a', 1), pos('b', 70.2, 0.5), pos('c', null, 0)]);
    const d = diffDates(db, wallet, '2025-01-01', '2025-02-01');
    const byKey = new Map([...d.changed, ...d.opened, ...d.closed].map((c) => [c.cid, c]));
    // Taking the unreadable value as 0 would report a loss of 100.1: it is unknown instead.
    expect(byKey.get('a')!.principalChange).toBeNull();
    expect(byKey.get('a')!.rewardChange).toBe(0);
    // A value not sent at all is unknown too.
    expect(byKey.get('c')!.principalChange).toBeNull();
    expect(byKey.get('b')!.principalChange).toBe(20.2);
    expect(d.unknownChanges).toBe(2);
    expect(d.principalChange).toBe(20.2);
    expect(d.rewardChange).toBe(0.5);
    expect(d.totalChange).toBe(20.7);
    // The unknown changes are listed first: they could be of any size.
    expect(
      d.changed
        .slice(0, 2)
        .map((c) => c.cid)
        .sort(),
    ).toEqual(['a', 'c']);
  });

  it('opened and closed positions still count their whole value; no unknowns, nothing flagged', () => {
    const db = createDB();
    addWallet(db, { address: wallet, chains: ['eth'] });
    snapshot(db, '2025-01-01', [pos('old', 30, 0)]);
    snapshot(db, '2025-02-01', [pos('new', 45.5, 0.25)]);
    const d = diffDates(db, wallet, '2025-01-01', '2025-02-01');
    expect(d.opened.map((c) => [c.principalChange, c.rewardChange])).toEqual([[45.5, 0.25]]);
    expect(d.closed.map((c) => [c.principalChange, c.rewardChange])).toEqual([[-30, 0]]);
    expect(d.unknownChanges).toBe(0);
    expect(d.totalChange).toBe(15.75);
  });

  it('when every change is unknown the sums are unknown, not 0', () => {
    const db = createDB();
    addWallet(db, { address: wallet, chains: ['eth'] });
    snapshot(db, '2025-01-01', [pos('a', 'n/a', 'n/a')]);
    snapshot(db, '2025-02-01', [pos('a', 5, 1)]);
    const d = diffDates(db, wallet, '2025-01-01', '2025-02-01');
    expect([d.principalChange, d.rewardChange, d.totalChange, d.unknownChanges]).toEqual([null, null, null, 1]);
  });
});
