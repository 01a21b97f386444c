import { afterEach, describe, expect, it } from 'vitest';
import { createServiceClient } from '../../src/main/core/service/client.ts';
import {
  AuthError,
  BadResponseError,
  CancelledError,
  NetworkError,
  RateLimitedError,
  RequestError,
  ServerError,
  type ServiceError,
  ServiceStatusError,
} from '../../src/main/core/service/errors.ts';
import type { RetryInfo } from '../../src/main/core/service/http.ts';
import { allLogs, transactionPages } from '../../src/main/core/service/paging.ts';
import type { FaultRule } from '../../src/sim/faults.ts';
import { KEY, useSimulator, WALLET } from '../support/sim.ts';

const ctx = useSimulator({ txnsPerWallet: 3000 });

/** Fast retries, so give-up paths run in milliseconds. */
function client(overrides: Partial<Parameters<typeof createServiceClient>[0]> = {}) {
  const retries: RetryInfo[] = [];
  const c = createServiceClient({
    baseUrl: ctx.sim.url,
    accessKey: KEY,
    policy: { timeoutMs: 2000, maxAttempts: 3, backoffBaseMs: 5, backoffMaxMs: 20, maxRetryAfterMs: 5000 },
    onRetry: (r) => retries.push(r),
    ...overrides,
  });
  return { c, retries };
}

function faults(...rules: FaultRule[]) {
  ctx.sim.setFaults(rules);
}

afterEach(() => ctx.sim.setFaults([]));

const q = { wallet: WALLET, chain: 'eth', date: '2025-05-05' };

/** Asserts the error is a ServiceError whose message and JSON carry no key. */
async function failure<T extends ServiceError>(p: Promise<unknown>, type: abstract new (...a: any[]) => T): Promise<T> {
  const err = await p.then(
    () => {
      throw new Error('expected a failure');
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(type);
  const e = err as T;
  expect(e.message).not.toContain(KEY);
  expect(e.stack ?? '').not.toContain(KEY);
  expect(JSON.stringify(e)).not.toContain(KEY);
  expect(e.url).toContain('access_key=REDACTED');
  return e;
}

describe('service client: the five endpoints over loopback', () => {
  it('all_positions: typed, normalised snapshots with the request id', async () => {
    const { c } = client();
    const res = await c.allPositions(q);
    expect(res.requestId).toMatch(/^[0-9a-f]{16}$/);
    expect(res.message).toBe(`Get Positions (ID: ${res.requestId}) succeed.`);
    const snap = res.data[0]!;
    expect(snap.date).toBe('2025-05-05T00:00:00.000Z');
    expect(snap.wallet_id).toBe(WALLET);
    expect(snap.positions.length).toBeGreaterThan(0);
    expect(typeof snap.positions[0]!.principal_nav).toBe('number');
    // Details members that vary with asset_type stay absent rather than becoming null.
    const walletDetails = snap.positions.find((p) => p.asset_type === 'wallet')!.underlying[0]!.details;
    expect(walletDetails).toEqual({ is_reward: false, type: 'balance' });
    expect(res.body).toContain('"status":"OK"');
    expect(res.url).not.toContain(KEY);
  });

  it('positions_by_underlying and port_liq_analysis, with the asset_type filter', async () => {
    const { c } = client();
    const grouped = await c.positionsByUnderlying(q);
    expect(grouped.data[0]!.positions[0]!.breakdown.length).toBeGreaterThan(0);
    const liq = await c.liquidityAnalysis({ ...q, assetType: 'lending' });
    expect(liq.data[0]!.positions.every((p) => p.asset_type === 'lending')).toBe(true);
    expect(liq.message).toContain('liqudity');
  });

  it('txn_by_wallet, paged until a short page, and logs_by_txn_hash until total', async () => {
    const { c } = client();
    const pages = [];
    for await (const page of transactionPages(c, { wallet: WALLET, chain: 'arb', pageSize: 500 })) pages.push(page);
    expect(pages.map((p) => p.rows.length)).toEqual([500, 500, 500, 500, 500, 500, 0]);
    expect(pages.at(-1)!.last).toBe(true);
    const hashes = pages.flatMap((p) => p.rows.map((r) => r.txn_hash));
    expect(new Set(hashes).size).toBe(3000);
    expect(pages[0]!.completionRatio).toBe(1);

    let withManyLogs: string | undefined;
    for (const hash of hashes.slice(0, 400)) {
      const first = await c.logsByTxnHash({ txnHash: hash, chain: 'arb', pageSize: 1 });
      if ((first.total ?? 0) > 100) {
        withManyLogs = hash;
        break;
      }
    }
    expect(withManyLogs).toBeDefined();
    const { logs, total, header } = await allLogs(c, { txnHash: withManyLogs!, chain: 'arb', pageSize: 40 });
    expect(logs).toHaveLength(total);
    expect(logs.map((l) => l.log_index)).toEqual([...Array(total).keys()]);
    expect(header?.txn_hash).toBe(withManyLogs);
  });

  it('limits requests in flight across all calls to the configured concurrency', async () => {
    ctx.sim.setLatency(40);
    try {
      const { c } = client({ concurrency: 3 });
      let peak = 0;
      const watch = setInterval(() => (peak = Math.max(peak, c.limiter.active)), 2);
      await Promise.all([...Array(12)].map((_, i) => (i % 2 ? c.allPositions(q) : c.transactionsByWallet({ wallet: WALLET, chain: 'eth', pageSize: 10 }))));
      clearInterval(watch);
      expect(peak).toBe(3);
    } finally {
      ctx.sim.setLatency(0);
    }
  });
});

describe('service client: faults, retries and give-up', () => {
  it('retries a 429 after Retry-After and succeeds', async () => {
    faults({ kind: 'rate-limit', times: 1, retryAfterSeconds: 1 });
    const { c, retries } = client();
    const started = Date.now();
    const res = await c.allPositions(q);
    expect(res.attempts).toBe(2);
    expect(retries).toHaveLength(1);
    expect(retries[0]!.delayMs).toBe(1000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('gives up on 429 when Retry-After exceeds the cap, as rate-limited with the wait', async () => {
    faults({ kind: 'rate-limit', retryAfterSeconds: 120 });
    const { c, retries } = client();
    const err = await failure(c.allPositions(q), RateLimitedError);
    expect(err.retryAfterMs).toBe(120_000);
    expect(retries).toHaveLength(0);
  });

  it.each([500, 502, 503] as const)('retries a %i with backoff and succeeds', async (status) => {
    faults({ kind: 'server-error', times: 2, status });
    const { c, retries } = client();
    const res = await c.positionsByUnderlying(q);
    expect(res.attempts).toBe(3);
    expect(retries.map((r) => r.error.kind)).toEqual(['server', 'server']);
  });

  it('gives up after the last attempt on a lasting 5xx', async () => {
    faults({ kind: 'server-error' });
    const { c, retries } = client();
    const err = await failure(c.allPositions(q), ServerError);
    expect([500, 502, 503]).toContain(err.status);
    expect(retries).toHaveLength(2);
  });

  it('backs off exponentially with full jitter, capped', async () => {
    faults({ kind: 'server-error' });
    const { c, retries } = client({ random: () => 1, policy: { timeoutMs: 2000, maxAttempts: 5, backoffBaseMs: 4, backoffMaxMs: 20 } });
    await failure(c.allPositions(q), ServerError);
    expect(retries.map((r) => r.delayMs)).toEqual([4, 8, 16, 20]);
  });

  it('times out a connection that hangs, retries, then gives up as a network timeout', async () => {
    faults({ kind: 'hang' });
    const { c, retries } = client({ policy: { timeoutMs: 200, maxAttempts: 2, backoffBaseMs: 5, backoffMaxMs: 5 } });
    const err = await failure(c.allPositions(q), NetworkError);
    expect(err.timedOut).toBe(true);
    expect(retries).toHaveLength(1);
  });

  it('recovers when a hang happens once', async () => {
    faults({ kind: 'hang', times: 1 });
    const { c } = client({ policy: { timeoutMs: 200, maxAttempts: 2, backoffBaseMs: 5, backoffMaxMs: 5 } });
    expect((await c.allPositions(q)).attempts).toBe(2);
  });

  it('reports a refused connection as a network error, retried', async () => {
    const { c, retries } = client({ baseUrl: 'http://127.0.0.1:9' });
    const err = await failure(c.allPositions(q), NetworkError);
    expect(err.timedOut).toBe(false);
    expect(err.message).toMatch(/ECONNREFUSED|connect/);
    expect(retries).toHaveLength(2);
  });

  it('treats a truncated body as a network failure and retries it', async () => {
    faults({ kind: 'truncated', times: 1 });
    const { c, retries } = client();
    const res = await c.allPositions(q);
    expect(res.attempts).toBe(2);
    expect(retries[0]!.error.kind).toBe('network');
  });

  it('asks again for a body that is not JSON (cut mid-JSON by a proxy, yet ended cleanly), as for a network failure', async () => {
    faults({ kind: 'malformed-json', times: 1 });
    const once = client();
    const res = await once.c.allPositions(q);
    expect(res.attempts).toBe(2);
    expect(once.retries.map((r) => r.error.kind)).toEqual(['bad-response']);

    // Never JSON: a bad response after the policy's attempts, saying what it was.
    faults({ kind: 'malformed-json' });
    const { c, retries } = client();
    const before = ctx.sim.requests.length;
    const err = await failure(c.allPositions(q), BadResponseError);
    expect(err.message).toContain('not valid JSON');
    expect(retries).toHaveLength(2);
    expect(ctx.sim.requests.length - before).toBe(3); // maxAttempts of this client
  });

  it('does not ask again for a body that is JSON of the wrong shape', async () => {
    let asked = 0;
    const body = JSON.stringify({ status: 'OK', message: 'Get Positions (ID: x) succeed.', data: [{ wallet_id: WALLET, positions: 'none' }] });
    const { c, retries } = client({ fetch: async () => (asked++, new Response(body, { status: 200 })) });
    await failure(c.allPositions(q), BadResponseError);
    expect(retries).toHaveLength(0);
    expect(asked).toBe(1);
  });

  it('surfaces a status other than OK as a service-status error with its message', async () => {
    faults({ kind: 'status-not-ok' });
    const { c } = client();
    const err = await failure(c.liquidityAnalysis(q), ServiceStatusError);
    expect(err.serviceStatus).toBe('FAILED');
    expect(err.message).toContain('indexer timeout');
  });

  it('asks again when a 2xx says a status other than OK, a bounded number of times', async () => {
    faults({ kind: 'status-not-ok', times: 2, endpoint: 'allPositions' });
    const { c, retries } = client();
    const mark = ctx.sim.requests.length;
    const res = await c.allPositions(q);
    expect(res.attempts).toBe(3);
    expect(retries.map((r) => r.error.kind)).toEqual(['service-status', 'service-status']);
    expect(ctx.sim.requests.slice(mark).map((r) => r.fault)).toEqual(['status-not-ok', 'status-not-ok', null]);

    faults({ kind: 'status-not-ok', endpoint: 'allPositions' });
    const before = ctx.sim.requests.length;
    await failure(c.allPositions(q), ServiceStatusError);
    expect(ctx.sim.requests.length - before).toBe(3); // maxAttempts of this client
  });

  it('reads schema drift: numeric strings, nulls, missing members, other datetime formats, extra members', async () => {
    const { c } = client();
    const clean = await c.allPositions(q);
    const cleanTxns = await c.transactionsByWallet({ wallet: WALLET, chain: 'eth', pageSize: 200 });
    faults({ kind: 'schema-drift' });
    const bodies: string[] = [];
    for (let i = 0; i < 6; i++) {
      const drifted = await c.allPositions(q);
      bodies.push(drifted.body);
      expect(drifted.data[0]!.date).toBe(clean.data[0]!.date);
      const a = drifted.data[0]!.positions;
      const b = clean.data[0]!.positions;
      expect(a.map((p) => p.cid)).toEqual(b.map((p) => p.cid));
      a.forEach((p, k) => {
        // A drifted float is the same number, or null when the service sent null.
        if (p.principal_nav !== null) expect(p.principal_nav).toBe(b[k]!.principal_nav);
        p.underlying.forEach((u, j) => {
          if (u.qty !== null) expect(u.qty).toBe(b[k]!.underlying[j]!.qty);
          if (u.details.unlock_time) expect(u.details.unlock_time).toBe(b[k]!.underlying[j]!.details.unlock_time);
        });
      });
      const txns = await c.transactionsByWallet({ wallet: WALLET, chain: 'eth', pageSize: 200 });
      bodies.push(txns.body);
      const rows = txns.data[0]!.transaction_history;
      expect(rows.map((r) => r.date)).toEqual(cleanTxns.data[0]!.transaction_history.map((r) => r.date));
      expect(rows.every((r) => r.txn_fee === null || typeof r.txn_fee === 'number')).toBe(true);
    }
    // The drift really happened: every kind of it showed up in what was read.
    const all = bodies.join('\n');
    expect(all).toMatch(/"qty":"-?\d/); // numeric strings
    expect(all).toMatch(/"(nav|qty|txn_fee)":null/); // nulls
    expect(all).toMatch(/"date":("\d{4}-\d\d-\d\d \d\d:|\d{9,}|"\d{12,}"|"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d")/); // other datetime formats
    expect(bodies.some((b) => JSON.parse(b).data[0].positions?.some((p: any) => !('name' in p)))).toBe(true); // missing members
    // Extra members survive in the parsed data and in the raw body.
    const withExtra = await c.allPositions(q);
    expect(withExtra.body).toContain('x_indexer_version');
  });

  it('marks recent ranges incomplete with completion_ratio below 1', async () => {
    faults({ kind: 'incomplete', recentDays: 10 });
    const { c } = client();
    const end = Date.UTC(2026, 10, 1) / 1000;
    const recent = await c.transactionsByWallet({ wallet: WALLET, chain: 'eth', startTime: end - 20 * 86_400, endTime: end });
    expect(recent.data[0]!.completion_ratio).toBeCloseTo(0.5, 2);
    const old = await c.transactionsByWallet({ wallet: WALLET, chain: 'eth', startTime: end - 400 * 86_400, endTime: end - 300 * 86_400 });
    expect(old.data[0]!.completion_ratio).toBe(1);
  });

  it('fails with a typed auth error on a wrong key, naming no key', async () => {
    const { c, retries } = client({ accessKey: 'wrong-key-123' });
    const err = await failure(c.allPositions(q), AuthError);
    expect(err.status).toBe(401);
    expect(err.message).not.toContain('wrong-key-123');
    expect(retries).toHaveLength(0);
  });

  it('fails with a request error naming the parameter on bad input', async () => {
    const { c } = client();
    const err = await failure(c.allPositions({ ...q, date: '2025-02-30' }), RequestError);
    expect(err.parameter).toBe('date');
    expect(err.status).toBe(400);
  });

  // A bad value in a float member of a position response is nulled and flagged instead
  // (issue 12; test/conventions/values.test.ts): the wrong shape here is a missing identity member.
  it('names the JSON path of a response of the wrong shape', async () => {
    const body = JSON.stringify({
      status: 'OK',
      message: 'Get Positions (ID: x) succeed.',
      data: [{ wallet_id: WALLET, date: '2025-01-01', positions: [{ principal_nav: 'lots', underlying: [{ name: 'no id' }] }] }],
    });
    const { c } = client({ fetch: async () => new Response(body, { status: 200 }) });
    const err = await failure(c.allPositions(q), BadResponseError);
    expect(err.path).toBe('data[0].positions[0].underlying[0].internal_id');
  });

  it('still refuses a transactions page with an unreadable float, naming its path', async () => {
    const row = { txn_hash: '0x' + 'a'.repeat(64), txn_fee: 'lots', date: '2025-01-01T00:00:00Z', details: [] };
    const body = JSON.stringify({
      status: 'OK',
      message: 'Get transaction history (ID: x) succeed.',
      data: [{ transaction_history: [row], completion_ratio: 1 }],
    });
    const { c } = client({ fetch: async () => new Response(body, { status: 200 }) });
    const err = await failure(c.transactionsByWallet({ wallet: WALLET, chain: 'eth' }), BadResponseError);
    expect(err.path).toBe('data[0].transaction_history[0].txn_fee');
  });

  it('cancels a call in its backoff, promptly', async () => {
    faults({ kind: 'server-error' });
    const { c } = client({ policy: { timeoutMs: 2000, maxAttempts: 5, backoffBaseMs: 5000, backoffMaxMs: 5000 }, random: () => 1 });
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 100);
    const started = Date.now();
    await failure(c.allPositions(q, abort.signal), CancelledError);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('says an invalid base URL is invalid, naming no key', async () => {
    for (const baseUrl of ['not a url', 'ftp://example.org']) {
      const { c } = client({ baseUrl });
      const err = await c.allPositions(q).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(NetworkError);
      expect((err as Error).message).toMatch(/base URL/);
      expect((err as Error).message).not.toContain(KEY);
    }
  });
});
