import { describe, expect, it } from 'vitest';
import { createCore } from '../../src/main/core/app.ts';
import { openAnomaliesOf } from '../../src/main/core/service/index.ts';
import { walletCacheSummaries } from '../../src/main/core/sync/index.ts';
import { incompleteReasonsOf } from '../../src/main/core/transactions/index.ts';
import { openDatabase } from '../../src/main/core/store/db.ts';
import type { WritableDB } from '../../src/main/core/store/handles.ts';
import type { WalletStatus } from '../../src/shared/contract.ts';
import { demoStarter } from '../../src/sim/demo.ts';
import { SIM_NOW } from '../support/sim.ts';
import { tempDir } from '../support/store.ts';

/**
 * The sidebar's wallet statuses (`wallets.status`) are read for every wallet at once: at 1,000
 * wallets, four statements a wallet held the first screen most of a second (issue 40). What each
 * wallet gets must be what the statements of that wallet alone answered (kept here as the
 * reference): its newest fetch or check and date, its newest range update, its ranges not
 * complete and seams owed, its open anomalies (at most 50, newest first) — nothing of another
 * wallet's, and nothing for a wallet with nothing cached.
 */

const wallets = ['a', 'b', 'c', 'd'].map((x) => `0x${x.repeat(40)}`);
const [A, B, C, D] = wallets as [string, string, string, string];

function seed(db: WritableDB): void {
  const add = db.prepare(`INSERT INTO wallets (address, chains, created_at) VALUES (?, '["eth","base"]', '2026-01-01T00:00:00Z')`);
  for (const w of wallets) add.run(w);
  const snap = db.prepare(
    `INSERT INTO snapshots (endpoint, wallet, chain, requested_date, as_of, fetched_at, sha256, raw, data, position_count)
     VALUES ('allPositions', ?, ?, ?, ?, ?, 'h', '{}', '[]', 0)`,
  );
  const check = db.prepare(`INSERT INTO snapshot_checks (snapshot_id, checked_at) VALUES (?, ?)`);
  snap.run(A, 'eth', '2026-10-31', '2026-10-31', '2026-11-01T00:00:00Z');
  const checked = snap.run(A, 'base', '2026-09-30', '2026-09-30', '2026-10-01T00:00:00Z').lastInsertRowid;
  check.run(checked, '2026-11-02T00:00:00Z');
  snap.run(B, 'eth', '2026-08-31', '2026-08-31', '2026-09-01T00:00:00Z');
  const range = db.prepare(
    `INSERT INTO txn_sync_ranges (wallet, chain, start_time, end_time, state, page_size, updated_at, reason, completion_ratio)
     VALUES (?, ?, ?, ?, ?, 100, ?, ?, ?)`,
  );
  range.run(A, 'eth', 0, 100, 'complete', '2026-11-01T00:00:00Z', null, 1);
  range.run(A, 'base', 0, 100, 'incomplete', '2026-11-03T00:00:00Z', 'the service stopped', 0.5);
  range.run(B, 'eth', 0, 100, 'in_progress', '2026-10-03T00:00:00Z', null, null);
  range.run(C, 'eth', 0, 100, 'complete', '2026-10-04T00:00:00Z', null, 1);
  const seam = db.prepare(
    `INSERT INTO txn_owed_seams (wallet, chain, lo, hi, reason, since) VALUES (?, ?, ?, ?, 'rows of one second', '2026-11-01T00:00:00Z')`,
  );
  seam.run(C, 'eth', 50, 50);
  seam.run(C, 'base', 10, 20);
  seam.run(A, 'eth', 60, 70);
  const anomaly = db.prepare(`INSERT INTO service_anomalies (kind, wallet, chain, detail, at, resolved_at) VALUES ('k', ?, ?, ?, ?, ?)`);
  // More than the 50 a wallet lists, several at one moment (the later written first).
  for (let i = 0; i < 60; i++) anomaly.run(B, i % 2 ? 'eth' : null, `odd total ${i}`, `2026-11-0${1 + (i % 3)}T00:00:00Z`, null);
  anomaly.run(A, 'eth', 'resolved long ago', '2026-11-01T00:00:00Z', '2026-11-02T00:00:00Z');
  anomaly.run(A, 'base', 'page skipped', '2026-11-01T00:00:00Z', null);
  anomaly.run(null, null, 'service-wide', '2026-11-01T00:00:00Z', null);
}

/** What the statements of one wallet answered before they were read for all at once. */
function alone(db: WritableDB, wallet: string) {
  const positions = db
    .prepare(
      `SELECT max(coalesce(c.checked_at, s.fetched_at)) AS fetched, max(s.as_of) AS latest
         FROM snapshots s LEFT JOIN snapshot_checks c ON c.snapshot_id = s.id WHERE s.wallet = ?`,
    )
    .get(wallet) as { fetched: string | null; latest: string | null };
  const ranges = db.prepare(`SELECT max(updated_at) AS synced, sum(state != 'complete') AS open FROM txn_sync_ranges WHERE wallet = ?`).get(wallet) as {
    synced: string | null;
    open: number | null;
  };
  const seams = (db.prepare('SELECT count(*) AS n FROM txn_owed_seams WHERE wallet = ?').get(wallet) as { n: number }).n;
  const anomalies = db
    .prepare(`SELECT id, chain, detail FROM service_anomalies WHERE wallet = ? AND resolved_at IS NULL ORDER BY at DESC, id DESC LIMIT 50`)
    .all(wallet) as Array<{ id: number; chain: string | null; detail: string }>;
  return {
    summary: {
      positionsFetchedAt: positions.fetched,
      latestDate: positions.latest,
      transactionsSyncedAt: ranges.synced,
      openRanges: (ranges.open ?? 0) + seams,
    },
    anomalies,
  };
}

describe('wallet statuses read for every wallet at once', () => {
  it('give each wallet what its own statements gave it', () => {
    const db = openDatabase(`${tempDir()}/statuses.sqlite`);
    seed(db);
    const summaries = walletCacheSummaries(db, wallets);
    const anomalies = openAnomaliesOf(db, wallets);
    const reasons = incompleteReasonsOf(db, wallets);
    for (const w of wallets) {
      const ref = alone(db, w);
      expect(summaries.get(w), w).toEqual(ref.summary);
      expect(
        anomalies.get(w)!.map((a) => ({ id: a.id, chain: a.chain, detail: a.detail })),
        w,
      ).toEqual(ref.anomalies);
      // A wallet's reasons name only its own ranges and seams.
      expect(reasons.get(w), w).toEqual(incompleteReasonsOf(db, [w]).get(w));
    }
    expect(summaries.get(A)).toEqual({
      positionsFetchedAt: '2026-11-02T00:00:00Z',
      latestDate: '2026-10-31',
      transactionsSyncedAt: '2026-11-03T00:00:00Z',
      openRanges: 2,
    });
    expect(summaries.get(D)).toEqual({ positionsFetchedAt: null, latestDate: null, transactionsSyncedAt: null, openRanges: 0 });
    expect(anomalies.get(B)).toHaveLength(50);
    expect(reasons.get(A)).toHaveLength(2);
    expect(reasons.get(A)!.every((r) => r.startsWith('base: ') || r.startsWith('eth: '))).toBe(true);
    expect(
      reasons
        .get(C)!
        .map((r) => r.split(':')[0])
        .sort(),
    ).toEqual(['base', 'eth']);
    expect(reasons.get(D)).toEqual([]);
    db.close();
  });

  it('answer wallets.status through the core the same', async () => {
    const dataDir = tempDir();
    const start = () =>
      createCore({ dataDir, shell: 'web', baseUrl: null, env: {}, demo: demoStarter({ now: () => SIM_NOW }), scheduleEveryMs: 0, now: () => SIM_NOW });
    const core = await start();
    const res = await core.dispatch('wallets.list', {});
    expect(res.ok).toBe(true);
    await core.close();
    const db = openDatabase(`${dataDir}/demo.sqlite`);
    seed(db);
    db.close();
    const again = await start();
    const status = await again.dispatch('wallets.status', {});
    await again.close();
    expect(status.ok).toBe(true);
    const statuses = (status as { ok: true; result: WalletStatus[] }).result;
    expect(statuses.map((s) => s.address)).toEqual(wallets);
    const check = openDatabase(`${dataDir}/demo.sqlite`);
    for (const s of statuses) {
      const ref = alone(check, s.address);
      expect({ positionsFetchedAt: s.positionsFetchedAt, latestDate: s.latestDate, transactionsSyncedAt: s.transactionsSyncedAt }).toEqual({
        positionsFetchedAt: ref.summary.positionsFetchedAt,
        latestDate: ref.summary.latestDate,
        transactionsSyncedAt: ref.summary.transactionsSyncedAt,
      });
      expect(s.incomplete, s.address).toBe(ref.summary.openRanges > 0 || ref.anomalies.length > 0);
      // Its ranges' and seams' reasons, then its open anomalies, newest first.
      expect(s.incompleteReasons, s.address).toEqual([
        ...incompleteReasonsOf(check, [s.address]).get(s.address)!,
        ...ref.anomalies.map((a) => `${a.chain ?? 'service'}: ${a.detail}`),
      ]);
    }
    expect(statuses.find((s) => s.address === D)).toMatchObject({ incomplete: false, incompleteReasons: [], latestDate: null });
    check.close();
  });
});
