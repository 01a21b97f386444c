import { createHash } from 'node:crypto';
import type { LiquiditySnapshot, PositionSnapshot, UnderlyingSnapshot, ValueFlag } from '../../../../shared/service/schemas.ts';
import { namesDay, toIsoDatetime, writtenDay } from '../../../../shared/service/normalize.ts';
import { decimalSumOrNull } from '../../../../shared/decimal.ts';
import { positionTotals } from '../../../../shared/portfolio/totals.ts';
import type { ReadableDB, WritableDB } from '../../store/db.ts';
import type { SnapshotEndpoint, SnapshotDataByEndpoint, StoredSnapshot } from '../../../../shared/model.ts';
import { all, get, run, sql, value, prepare } from '../../store/sql.ts';

/**
 * What the store keeps of a service's answer: the store does not import the service client,
 * whose `ServiceResponse` has these members (and more) and is passed as it is.
 */
export interface SnapshotResponse<T> {
  data: T[];
  requestId: string | null;
  /** The body as received, kept byte for byte with its SHA-256. */
  body: string;
  fetchedAt: string;
  /** Values the service sent that could not be read (absent = none). */
  flags?: ValueFlag[];
}

export interface SnapshotInput<E extends SnapshotEndpoint> {
  endpoint: E;
  wallet: string;
  chain: string;
  requestedDate: string | null;
  response: SnapshotResponse<SnapshotDataByEndpoint[E]>;
  /** For a latest snapshot (no date asked): the day it is for, when the caller resolved it. */
  latestDay?: string;
}

/** The totals stored beside a snapshot, with the one null rule of src/shared/portfolio/totals.ts. */
function totals(endpoint: SnapshotEndpoint, data: unknown[]): { total: number | null; principal: number | null; reward: number | null; count: number } {
  if (endpoint === 'allPositions') {
    return positionTotals((data as PositionSnapshot[]).flatMap((s) => s.positions));
  }
  if (endpoint === 'positionsByUnderlying') {
    const groups = (data as UnderlyingSnapshot[]).flatMap((s) => s.positions);
    return { total: decimalSumOrNull(groups.map((g) => g.total_nav)), principal: null, reward: null, count: groups.length };
  }
  return { total: null, principal: null, reward: null, count: (data as LiquiditySnapshot[]).flatMap((s) => s.positions).length };
}

/**
 * The day a snapshot is filed under. Asked for a date, it is that date whenever the
 * service's datetime can name it (its written day, or its instant on that day in some real
 * zone): a zone offset never moves it to the day before or after. A datetime that cannot
 * name the asked day means the service answered for another day: the snapshot is filed
 * under the day the service wrote, and flagged. Not asked for a date (latest), it is the
 * day the caller resolved, else the day the service wrote, else the fetch day (UTC).
 */
export function filingDay(
  serviceDate: string | null,
  requestedDate: string | null,
  fetchedAt: string,
  latestDay?: string,
): { asOf: string; mismatch: ValueFlag | null } {
  // An unreadable date is flagged by the parser already: it names no day.
  if (serviceDate !== null && !toIsoDatetime(serviceDate)) serviceDate = null;
  if (requestedDate) {
    if (serviceDate === null || namesDay(serviceDate, requestedDate)) return { asOf: requestedDate, mismatch: null };
    const written = writtenDay(serviceDate) ?? requestedDate;
    return { asOf: written, mismatch: { path: 'data[0].date', value: `${serviceDate} (asked for ${requestedDate})` } };
  }
  return { asOf: latestDay ?? (serviceDate !== null ? writtenDay(serviceDate) : null) ?? fetchedAt.slice(0, 10), mismatch: null };
}

/** A body with the request id the service wrote into it taken out: two answers to one question compare equal. */
function withoutRequestId(raw: string, requestId: string | null): string {
  return requestId ? raw.split(requestId).join('') : raw;
}

/** The service's date as it sent it, from the first snapshot of the response. */
function serviceDateOf(data: unknown[]): string | null {
  return (data[0] as { service_date?: string | null } | undefined)?.service_date ?? null;
}

export function snapshotRecord<E extends SnapshotEndpoint>(input: SnapshotInput<E>) {
  const { response } = input;
  const t = totals(input.endpoint, response.data);
  const serviceDate = serviceDateOf(response.data);
  const { asOf, mismatch } = filingDay(serviceDate, input.requestedDate, response.fetchedAt, input.latestDay);
  const flags = [...(mismatch ? [mismatch] : []), ...(response.flags ?? [])];
  return {
    endpoint: input.endpoint,
    wallet: input.wallet,
    chain: input.chain,
    requested_date: input.requestedDate,
    as_of: asOf,
    service_date: serviceDate,
    quality: flags.length ? JSON.stringify(flags) : null,
    request_id: response.requestId,
    fetched_at: response.fetchedAt,
    sha256: createHash('sha256').update(response.body).digest('hex'),
    content_sha256: createHash('sha256').update(withoutRequestId(response.body, response.requestId)).digest('hex'),
    raw: response.body,
    data: JSON.stringify(response.data),
    total_nav: t.total,
    principal_nav: t.principal,
    reward_nav: t.reward,
    position_count: t.count,
  };
}

/** Stores the views of one (wallet, chain, date) together: all of them, or none. */
export function insertSnapshots(db: WritableDB, inputs: ReadonlyArray<SnapshotInput<SnapshotEndpoint>>): number[] {
  return db.transaction(() => inputs.map((input) => insertSnapshot(db, input))).immediate();
}

/**
 * Stores one response. A body identical to the newest snapshot's of the same (wallet, chain,
 * endpoint, day, date asked), but for the request id a service writes into each answer, is
 * not stored again: that snapshot is marked as sent again by this request at this time
 * (snapshot_checks, migration 12), so history holds one row per body the service changed.
 */
export function insertSnapshot<E extends SnapshotEndpoint>(db: WritableDB, input: SnapshotInput<E>): number {
  const r = snapshotRecord(input);
  const newest = prepare(
    db,
    `SELECT id, raw, request_id, requested_date, quality FROM snapshots
       WHERE wallet = ? AND chain = ? AND endpoint = ? AND as_of = ? ORDER BY fetched_at DESC, id DESC LIMIT 1`,
  ).get(r.wallet, r.chain, r.endpoint, r.as_of) as
    { id: number; raw: string; request_id: string | null; requested_date: string | null; quality: string | null } | undefined;
  if (
    newest &&
    newest.requested_date === r.requested_date &&
    newest.quality === r.quality &&
    withoutRequestId(newest.raw, newest.request_id) === withoutRequestId(r.raw, r.request_id)
  ) {
    prepare(
      db,
      `INSERT INTO snapshot_checks (snapshot_id, checked_at, request_id) VALUES (@id, @at, @request)
       ON CONFLICT (snapshot_id) DO UPDATE SET checked_at = excluded.checked_at, request_id = excluded.request_id
       WHERE excluded.checked_at > snapshot_checks.checked_at`,
    ).run({ id: newest.id, at: r.fetched_at, request: r.request_id });
    return newest.id;
  }
  const info = prepare(
    db,
    `INSERT INTO snapshots (endpoint, wallet, chain, requested_date, as_of, service_date, quality, request_id, fetched_at, sha256, content_sha256, raw, data, total_nav, principal_nav, reward_nav, position_count)
       VALUES (@endpoint, @wallet, @chain, @requested_date, @as_of, @service_date, @quality, @request_id, @fetched_at, @sha256, @content_sha256, @raw, @data, @total_nav, @principal_nav, @reward_nav, @position_count)`,
  ).run(r);
  return Number(info.lastInsertRowid);
}

interface SnapshotRow {
  id: number;
  endpoint: SnapshotEndpoint;
  wallet: string;
  chain: string;
  requested_date: string | null;
  as_of: string;
  service_date: string | null;
  quality: string | null;
  request_id: string | null;
  fetched_at: string;
  sha256: string;
  data: string;
  total_nav: number | null;
  principal_nav: number | null;
  reward_nav: number | null;
  position_count: number;
}

function fromRow<E extends SnapshotEndpoint>(r: SnapshotRow): StoredSnapshot<E> {
  return {
    id: r.id,
    endpoint: r.endpoint as E,
    wallet: r.wallet,
    chain: r.chain,
    requestedDate: r.requested_date,
    asOf: r.as_of,
    serviceDate: r.service_date,
    quality: r.quality ? (JSON.parse(r.quality) as ValueFlag[]) : [],
    requestId: r.request_id,
    fetchedAt: r.fetched_at,
    sha256: r.sha256,
    data: JSON.parse(r.data) as Array<SnapshotDataByEndpoint[E]>,
    totalNav: r.total_nav,
    principalNav: r.principal_nav,
    rewardNav: r.reward_nav,
    positionCount: r.position_count,
  };
}

/** The newest fetch of one endpoint for (wallet, chain) at a date (fetched at: the last time the service sent that body). */
export function latestSnapshot<E extends SnapshotEndpoint>(db: ReadableDB, endpoint: E, wallet: string, chain: string, asOf: string): StoredSnapshot<E> | null {
  const row = get<SnapshotRow>(
    db,
    sql`SELECT s.id, s.endpoint, s.wallet, s.chain, s.requested_date, s.as_of, s.service_date, s.quality, s.request_id,
              coalesce(c.checked_at, s.fetched_at) AS fetched_at, s.sha256, s.data, s.total_nav, s.principal_nav, s.reward_nav, s.position_count
       FROM snapshots s LEFT JOIN snapshot_checks c ON c.snapshot_id = s.id
       WHERE s.wallet = ${wallet} AND s.chain = ${chain} AND s.endpoint = ${endpoint} AND s.as_of = ${asOf} ORDER BY s.fetched_at DESC, s.id DESC LIMIT 1`,
  );
  return row ? fromRow<E>(row) : null;
}

/** The body exactly as received, for provenance and export. */
export function rawSnapshot(db: ReadableDB, id: number): { raw: string; sha256: string; requestId: string | null } | null {
  return (
    get<{ raw: string; sha256: string; requestId: string | null }>(db, sql`SELECT raw, sha256, request_id AS requestId FROM snapshots WHERE id = ${id}`) ?? null
  );
}

/**
 * Dates at which all three views are cached for (wallet, chain), or for any chain of the
 * wallet when chain is omitted; newest first.
 */
export function cachedDates(db: ReadableDB, wallet: string, chain?: string): string[] {
  const rows = all<{ as_of: string }>(
    db,
    sql`SELECT as_of FROM snapshots WHERE wallet = ${wallet} AND (${chain ?? null} IS NULL OR chain = ${chain ?? null})
       GROUP BY as_of, chain HAVING count(DISTINCT endpoint) = 3
       ORDER BY as_of DESC`,
  );
  return [...new Set(rows.map((r) => r.as_of))];
}

/** Whether all three views of (wallet, chain) are cached for a date (asked for or answered). */
export function hasCompleteDate(db: ReadableDB, wallet: string, chain: string, date: string): boolean {
  return completeMembersAt(db, [[wallet, chain]], date) === 1;
}

/**
 * How many of `members` (wallet chains) have all three views cached at `date` (asked for it, or
 * answered for it): one statement, each member a seek on the snapshots' key, rather than a call
 * per member (a fund's 6,000 at every screen's as-of badge).
 */
export function completeMembersAt(db: ReadableDB, members: ReadonlyArray<readonly [wallet: string, chain: string]>, date: string): number {
  if (!members.length) return 0;
  return value<number>(
    db,
    // The views answered for the date are found in the key alone (no row read); only a member
    // without all three so is read again for those the service answered for another day.
    sql`SELECT count(*) FROM json_each(${JSON.stringify(members)}) m
         WHERE (SELECT count(DISTINCT s.endpoint) FROM snapshots s INDEXED BY snapshots_by_key
                 WHERE s.wallet = m.value ->> 0 AND s.chain = m.value ->> 1 AND s.as_of = ${date}) = 3
            OR (SELECT count(DISTINCT s.endpoint) FROM snapshots s INDEXED BY snapshots_by_key
                 WHERE s.wallet = m.value ->> 0 AND s.chain = m.value ->> 1 AND (s.as_of = ${date} OR s.requested_date = ${date})) = 3`,
  )!;
}

/** Deletes every cached response (the user's "clear cache", sync/clear.ts); the count deleted. */
export function clearSnapshots(db: WritableDB): number {
  // Snapshots are immutable (no UPDATE), but the user may delete them.
  return prepare(db, 'DELETE FROM snapshots').run().changes;
}

/** Deletes a wallet's cached responses (the wallet removed with its data, wallets/remove.ts). */
export function purgeWalletSnapshots(db: WritableDB, wallet: string): void {
  run(db, sql`DELETE FROM snapshots WHERE wallet = ${wallet}`);
}
