/**
 * The snapshots a closed period stands on (closes/hash.ts hashes them; closes/store/closes.ts
 * keeps them with the close): read here, where the snapshots are owned.
 */
import type { ReadableDB } from '../../store/handles.ts';
import { all, sql, sqlJoin } from '../../store/sql.ts';

/** A snapshot a close stood on (its id and the SHA-256 of the body the service sent). */
export interface BasisSnapshot {
  wallet: string;
  chain: string;
  endpoint: string;
  asOf: string;
  id: number;
  sha256: string;
  /**
   * The SHA-256 of the body without its request id (migration 22): the same for every answer
   * with the same data. Absent in the basis of a close made before version 22.
   */
  content?: string | undefined;
}

/**
 * The snapshots the pack of `wallets` from `from` to `to` stands on: the newest fetch of each
 * view at the two dates (the two portfolio views), and of the by-token view at every date in
 * between (the prices flows are valued at). Ordered, so the same data hashes the same.
 */
export function basisSnapshots(db: ReadableDB, wallets: readonly string[], from: string, to: string): BasisSnapshot[] {
  if (!wallets.length) return [];
  return all<BasisSnapshot>(
    db,
    sql`SELECT wallet, chain, endpoint, as_of AS asOf, id, sha256, content_sha256 AS content FROM (
          SELECT id, wallet, chain, endpoint, as_of, sha256, content_sha256,
                 row_number() OVER (PARTITION BY wallet, chain, endpoint, as_of ORDER BY fetched_at DESC, id DESC) AS newest
          FROM snapshots
          WHERE wallet IN (${sqlJoin(wallets)})
            AND (as_of IN (${from}, ${to}) OR (endpoint = 'positionsByUnderlying' AND as_of BETWEEN ${from} AND ${to})))
        WHERE newest = 1
        ORDER BY wallet, chain, endpoint, as_of`,
  );
}
