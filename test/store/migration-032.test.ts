import { describe, expect, it } from 'vitest';
import { heldTokens, latestSnapshot, snapshotTokensAt, type SnapshotToken } from '../../src/main/core/positions/index.ts';
import type { WritableDB } from '../../src/main/core/store/handles.ts';
import { MIGRATIONS, SCHEMA_VERSION } from '../../src/main/core/store/migrations/index.ts';
import { updateToSchemaVersion32 } from '../../src/main/core/store/migrations/032-snapshot-tokens.ts';
import { createDB, updateToVersion } from '../support/store.ts';

/**
 * Migration 032: each by-underlying snapshot's tokens as rows, written and removed by triggers
 * with the snapshot. What the judge and the pack read from them must be what they read from the
 * bodies before: the judge's held tokens as the JSON query over every body answered (kept here
 * as the reference), and a snapshot's tokens as its parsed body gives them, numbers to the bit
 * (quantities the service writes with more digits than a double holds, a value it sends as null
 * or not at all).
 */

const W = '0xaaaa000000000000000000000000000000000001';
const AWKWARD = ['0.1', '1e-7', '123456789.123456789', '9007199254740993', '0.30000000000000004', '5e-324', '-0', '2.675', '-1.5e-10', '1E400'];

/** A by-underlying body as text: groups of positions, number fields written as given. */
function body(groups: Array<Array<Record<string, string | null | undefined>>>): string {
  const field = (k: string, v: string | null | undefined) => (v === undefined ? [] : [`"${k}":${v}`]);
  return `[${groups
    .map(
      (positions) =>
        `{"chain":"eth","positions":[${positions
          .map(
            (p) =>
              `{${Object.entries(p)
                .flatMap(([k, v]) => field(k, v))
                .join(',')}}`,
          )
          .join(',')}]}`,
    )
    .join(',')}]`;
}

const token = (id: string, cid: string | null, symbol: string, qty: string | null | undefined, nav: string | null | undefined) => ({
  token_id: JSON.stringify(id),
  token_cid: cid === null ? 'null' : JSON.stringify(cid),
  token_symbol: JSON.stringify(symbol),
  token_name: JSON.stringify(`${symbol} token`),
  total_qty: qty,
  total_nav: nav,
});

let fetched = 0;
function insert(db: WritableDB, endpoint: string, chain: string, asOf: string, data: string): number {
  fetched += 1;
  return Number(
    db
      .prepare(
        `INSERT INTO snapshots (endpoint, wallet, chain, requested_date, as_of, fetched_at, sha256, raw, data, position_count)
         VALUES (?, ?, ?, ?, ?, ?, 'h', '{}', ?, 0)`,
      )
      .run(endpoint, W, chain, asOf, asOf, `2026-11-01T00:00:${String(fetched).padStart(2, '0')}Z`, data).lastInsertRowid,
  );
}

/** The judge's held tokens as read before migration 32: the JSON reader over every body. */
function heldTokensFromBodies(db: WritableDB, chain: string) {
  return db
    .prepare(
      `SELECT s.chain, g.value ->> 'token_cid' AS cid, max(g.value ->> 'token_symbol') AS symbol, max(g.value ->> 'token_name') AS name,
              min(s.as_of) AS first, max(s.as_of) AS last,
              avg(CASE WHEN (g.value ->> 'total_qty') > 0 AND (g.value ->> 'total_nav') > 0
                       THEN (g.value ->> 'total_nav') / (g.value ->> 'total_qty') END) AS price
         FROM snapshots s, json_each(s.data) d, json_each(d.value, '$.positions') g
        WHERE s.wallet = ? AND s.chain = ? AND s.endpoint = 'positionsByUnderlying'
        GROUP BY s.chain, g.value ->> 'token_cid'`,
    )
    .all(W, chain);
}

/** A snapshot's tokens as its parsed body gives them (what the pack read before). */
function tokensFromBody(db: WritableDB, chain: string, asOf: string) {
  const snap = latestSnapshot(db, 'positionsByUnderlying', W, chain, asOf);
  return (
    snap?.data.flatMap((s) =>
      s.positions.map((g) => ({
        tokenId: g.token_id,
        cid: g.token_cid,
        symbol: g.token_symbol,
        name: g.token_name,
        qty: g.total_qty,
        nav: g.total_nav,
      })),
    ) ?? null
  );
}

/** W's tokens at a date on a chain as the pack reads them (null: not cached). */
const snapshotTokens = (db: WritableDB, wallet: string, chain: string, asOf: string): SnapshotToken[] | null =>
  snapshotTokensAt(db, asOf, [wallet]).get(`${wallet}|${chain}`) ?? null;
/** Wallets not watched: with them, a scope is found all at once rather than wallet by wallet. */
const OTHERS = Array.from({ length: 20 }, (_, i) => `0x${String(i).padStart(40, 'e')}`);

function expectSameReads(db: WritableDB): void {
  for (const asOf of ['2026-09-30', '2026-10-31', '2026-11-30']) expect(snapshotTokensAt(db, asOf, [...OTHERS, W])).toEqual(snapshotTokensAt(db, asOf, [W]));
  for (const chain of ['eth', 'base']) {
    expect(heldTokens(db, W, chain)).toEqual(heldTokensFromBodies(db, chain));
    for (const asOf of ['2026-09-30', '2026-10-31', '2026-11-30']) {
      const rows = snapshotTokens(db, W, chain, asOf);
      expect(rows).toEqual(tokensFromBody(db, chain, asOf));
      // Object.is: -0 stays -0, as the body's parse gives it.
      for (const [i, r] of (rows ?? []).entries()) expect(Object.is(r.qty, tokensFromBody(db, chain, asOf)![i]!.qty)).toBe(true);
    }
  }
  expect(heldTokens(db, W).length).toBe(heldTokensFromBodies(db, 'eth').length + heldTokensFromBodies(db, 'base').length);
}

describe('migration 032: snapshot tokens', () => {
  it('fills the rows of the snapshots already cached, and keeps them with every snapshot written or removed after', () => {
    const index = MIGRATIONS.indexOf(updateToSchemaVersion32);
    expect(index).toBe(31);
    const db = createDB({ version: index });
    db.prepare(`INSERT INTO wallets (address, chains, created_at) VALUES (?, '["eth","base"]', 'now')`).run(W);
    insert(
      db,
      'positionsByUnderlying',
      'eth',
      '2026-09-30',
      body([
        AWKWARD.map((q, i) => token(`eth:t${i}`, `0xT${i}`, `T${i}`, q, AWKWARD[(i + 3) % AWKWARD.length])),
        [token('eth:native', null, 'ETH', 'null', '5'), token('eth:t1', '0xT1', 'T1', '2', undefined)],
      ]),
    );
    // The date fetched twice: the newer body is the one read.
    insert(db, 'positionsByUnderlying', 'eth', '2026-10-31', body([[token('eth:t0', '0xT0', 'T0', '1', '1')]]));
    const newer = insert(
      db,
      'positionsByUnderlying',
      'eth',
      '2026-10-31',
      body([[token('eth:t0', '0xt0', 'T0', '3', '6.5'), token('eth:t9', '0xT9', 'T9', '0', '0')]]),
    );
    // Other views and a body with no positions: no rows.
    insert(db, 'allPositions', 'eth', '2026-10-31', body([[token('eth:x', '0xX', 'X', '1', '1')]]));
    insert(db, 'positionsByUnderlying', 'base', '2026-10-31', '[{"chain":"base","positions":[]}]');
    updateToVersion(db, SCHEMA_VERSION);

    const rows = () => (db.prepare('SELECT count(*) AS n FROM snapshot_tokens').get() as { n: number }).n;
    expect(rows()).toBe(AWKWARD.length + 2 + 1 + 2);
    expectSameReads(db);
    expect(snapshotTokens(db, W, 'eth', '2026-10-31')?.map((t) => t.qty)).toEqual([3, 0]);
    expect(snapshotTokens(db, W, 'base', '2026-10-31')).toEqual([]);
    expect(snapshotTokens(db, W, 'eth', '2026-12-31')).toBeNull();

    // Written after: by the trigger, as the migration did.
    insert(
      db,
      'positionsByUnderlying',
      'base',
      '2026-11-30',
      body([[token('base:u', '0xU', 'USDC', '1000.5', '1000.4')], AWKWARD.map((q) => token('base:a', '0xA', 'A', q, '1'))]),
    );
    expect(rows()).toBe(AWKWARD.length + 5 + 1 + AWKWARD.length);
    expectSameReads(db);

    // Removed: the snapshot's rows go with it, no other's.
    db.prepare('DELETE FROM snapshots WHERE id = ?').run(newer);
    expect(rows()).toBe(AWKWARD.length + 3 + 1 + AWKWARD.length);
    expect(snapshotTokens(db, W, 'eth', '2026-10-31')?.map((t) => t.qty)).toEqual([1]);
    expectSameReads(db);
    db.prepare('DELETE FROM snapshots').run();
    expect(rows()).toBe(0);
    expectSameReads(db);
    db.close();
  });
});
