import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createServiceClient } from '../../src/main/core/service/client.ts';
import { CancelledError } from '../../src/main/core/service/errors.ts';
import type { LogsBounds } from '../../src/main/core/service/paging.ts';
import { createCore } from '../../src/main/core/app.ts';
import { listAnomalies } from '../../src/main/core/service/store/conventions.ts';
import type { WritableDB } from '../../src/main/core/store/db.ts';
import { getLogSet, saveLogSet } from '../../src/main/core/transactions/store/logs.ts';
import { SyncEngine } from '../../src/main/core/sync/engine.ts';
import type { LogSet } from '../../src/shared/model.ts';
import { RUNAWAY_TOTAL, type RunawayService, startRunawayService } from '../support/runaway-service.ts';
import { cacheOf, createDB, tempDir } from '../support/store.ts';

/**
 * Finding (issue 26): against a service whose logs endpoint answers `total: 1e12` with full,
 * distinct pages for ever, one transaction's logs ran 2,258 pages and 1.2 GB in 60 s, still
 * growing: every log was held in memory up to 10,000 pages of 1,000. Now one transaction's
 * logs read is bounded in logs and bytes kept, pages asked and wall time (LOGS_BOUNDS), its
 * pages are staged in the store as they come, and a read a bound stops is stored and answered
 * incomplete, saying which bound stopped it and what `total` claimed. Cancelling still works.
 */
const KEY = 'runaway-logs-key-5e2b9a';
const HASH = `0x${'ab'.repeat(32)}`;
/** Longer than a bounded read takes; the unbounded one was still reading at 60 s. */
const STILL_READING_AFTER_MS = 20_000;
/** The documented defaults (LOGS_BOUNDS in service/paging.ts, docs/service.md), written out so a change to them is seen here. */
const DEFAULT_MAX_LOGS = 50_000;
const DEFAULT_MAX_MS = 120_000;

let service: RunawayService;
beforeAll(async () => {
  service = await startRunawayService(47200);
});
afterAll(async () => {
  await service.close();
});
beforeEach(() => {
  service.pages = [];
  service.perPage = null;
  service.dataChars = 64;
  service.delayMs = 0;
  service.hangFrom = Infinity;
});

function engineWith(db: WritableDB, bounds: Partial<LogsBounds>, timeoutMs = 2000) {
  const client = createServiceClient({
    baseUrl: service.url,
    accessKey: KEY,
    concurrency: 4,
    policy: { timeoutMs, maxAttempts: 3, backoffBaseMs: 5, backoffMaxMs: 20 },
  });
  return new SyncEngine({ db, client, logsBounds: bounds });
}

/** The read's answer, or 'still reading' when it outlives any bound (as the unbounded read did). */
async function within<T>(p: Promise<T>, ms = STILL_READING_AFTER_MS): Promise<T | 'still reading'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'still reading'>((resolve) => (timer = setTimeout(() => resolve('still reading'), ms)));
  try {
    return await Promise.race([p, late]);
  } finally {
    clearTimeout(timer);
  }
}

const STOPPED = (after: RegExp | string) =>
  new RegExp(
    `^the logs read stopped after ${typeof after === 'string' ? after : after.source}.*: the service kept sending pages \\(total says ${RUNAWAY_TOTAL}\\); the logs shown may be incomplete$`,
  );

/** The logs the service sent, in order: log n has log_index n. */
const inOrder = (set: LogSet) => set.logs.every((l, i) => l.log_index === i);

describe('one transaction’s logs from a service that never stops paging', { timeout: 90_000 }, () => {
  it('stops at the most logs kept: what fits is stored, marked incomplete with the bound and the total claimed', async () => {
    const db = createDB();
    const engine = engineWith(db, { maxLogs: 2_500 });
    const set = await within(engine.logs('eth', HASH));
    expect(set).not.toBe('still reading');
    if (set === 'still reading') return;
    // Pages of 1,000: two whole, then the third cut at the bound; nothing asked after it.
    expect(service.pages).toEqual([1, 2, 3]);
    expect(set.complete).toBe(false);
    expect(set.note).toMatch(STOPPED('2500 logs'));
    expect(set.logs).toHaveLength(2_500);
    expect(inOrder(set)).toBe(true);
    expect(set.total).toBe(RUNAWAY_TOTAL);
    // As stored, and told where other logs incompleteness is told (the service's anomalies).
    expect(getLogSet(db, 'eth', HASH)).toEqual(set);
    expect(listAnomalies(db, { openOnly: true }).map((a) => a.detail)).toEqual([expect.stringMatching(/stopped after 2500 logs/)]);
    // An incomplete set is read again when asked again, and stopped again: never taken as whole.
    const again = await engine.logs('eth', HASH);
    expect(again.complete).toBe(false);
    expect(service.pages).toEqual([1, 2, 3, 1, 2, 3]);
  });

  it('stops at the most bytes kept when each log is large', async () => {
    const db = createDB();
    service.dataChars = 10_000;
    service.perPage = 100;
    const engine = engineWith(db, { maxBytes: 1_000_000 });
    const set = await within(engine.logs('eth', HASH));
    if (set === 'still reading') throw new Error('the read did not stop');
    expect(set.complete).toBe(false);
    expect(set.note).toMatch(STOPPED(/\d+ logs holding \d+ bytes of log data \(at most 1000000/));
    const bytes = set.logs.reduce((n, l) => n + (l.data?.length ?? 0) + l.topics.reduce((m, t) => m + t.length, 0), 0);
    expect(bytes).toBeLessThanOrEqual(1_000_000);
    expect(set.logs.length).toBeGreaterThan(90);
    expect(inOrder(set)).toBe(true);
    expect(service.pages.length).toBeLessThanOrEqual(2);
  });

  it('stops at the most pages asked when the service sends one log a page', async () => {
    const db = createDB();
    service.perPage = 1;
    const engine = engineWith(db, { maxPages: 40 });
    const set = await within(engine.logs('eth', HASH));
    if (set === 'still reading') throw new Error('the read did not stop');
    expect(service.pages).toHaveLength(40);
    expect(set.complete).toBe(false);
    expect(set.note).toMatch(STOPPED('40 pages'));
    expect(set.logs).toHaveLength(40);
  });

  it('stops at the longest read, a page in flight included, keeping the pages read', async () => {
    const db = createDB();
    service.delayMs = 50;
    service.hangFrom = 6; // page 6 is accepted and never answered: the time bound ends the request too
    const engine = engineWith(db, { maxMs: 1_500 }, 20_000);
    const started = Date.now();
    const set = await within(engine.logs('eth', HASH));
    const took = Date.now() - started;
    if (set === 'still reading') throw new Error('the read did not stop');
    expect(took).toBeGreaterThanOrEqual(1_400);
    expect(took).toBeLessThan(5_000);
    expect(set.complete).toBe(false);
    expect(set.note).toMatch(STOPPED(/1\.5 s .*with 5000 logs in 5 page\(s\)/));
    expect(set.logs).toHaveLength(5_000);
    expect(inOrder(set)).toBe(true);
  });

  it('a cancelled read stores nothing and leaves the cached set as it was', async () => {
    const db = createDB();
    const cached: LogSet = {
      chain: 'eth',
      txnHash: HASH,
      total: 1,
      header: null,
      logs: [{ topics: ['0x01'], data: '0x', log_index: 0 }],
      requestId: null,
      fetchedAt: '2025-06-01T00:00:00.000Z',
      complete: true,
      note: null,
    };
    saveLogSet(db, cached);
    service.delayMs = 20;
    const engine = engineWith(db, {});
    const stop = new AbortController();
    const reading = engine.logs('eth', HASH, { refresh: true, signal: stop.signal });
    reading.catch(() => undefined);
    while (service.pages.length < 5) await new Promise((r) => setTimeout(r, 5));
    const pagesAsked = service.pages.length;
    stop.abort();
    await expect(within(reading, 5_000)).rejects.toBeInstanceOf(CancelledError);
    // It stopped at once: no page asked after the cancel but those already in flight (four at a
    // time), counted rather than timed.
    const pagesAtCancel = service.pages.length;
    expect(pagesAtCancel - pagesAsked).toBeLessThanOrEqual(4);
    expect(getLogSet(db, 'eth', HASH)).toEqual({ ...cached, txnHash: HASH.toLowerCase() });
    // And none after: a request of ours, answered, has come after anything it had sent.
    await fetch(`${service.url}/after-the-cancel`);
    expect(service.pages.length).toBe(pagesAtCancel);
  });

  it(`logs.get at the real bounds (${DEFAULT_MAX_LOGS} logs): stops in seconds, memory bounded, incomplete with why`, async () => {
    const dataDir = tempDir();
    const core = await createCore({ dataDir, shell: 'web', baseUrl: service.url, env: { FOLIOSCOPE_ACCESS_KEY: KEY } });
    try {
      global.gc?.();
      const before = process.memoryUsage().rss;
      let peak = before;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
      const started = Date.now();
      const set = await within(core.call('logs.get', { chain: 'eth', txnHash: HASH }));
      clearInterval(sampler);
      const took = Date.now() - started;
      if (set === 'still reading') throw new Error(`still reading after ${STILL_READING_AFTER_MS / 1000} s (${service.pages.length} pages asked)`);
      // 50 full pages of 1,000 reach the bound; the 51st is asked and not kept.
      expect(service.pages).toHaveLength(DEFAULT_MAX_LOGS / 1000 + 1);
      expect(set.complete).toBe(false);
      expect(set.note).toMatch(STOPPED(`${DEFAULT_MAX_LOGS} logs`));
      expect(set.logs).toHaveLength(DEFAULT_MAX_LOGS);
      expect(took).toBeLessThan(DEFAULT_MAX_MS);
      // The unbounded read held 1.2 GB after 60 s; this one holds at most the set it answers.
      expect(peak - before, `rss grew ${Math.round((peak - before) / 2 ** 20)} MiB`).toBeLessThan(256 * 2 ** 20);
      // Stored as answered, in the cache file.
      const db = await cacheOf(core);
      const row = db.prepare('SELECT complete, note, total FROM txn_log_sets WHERE txn_hash = ?').get(HASH) as {
        complete: number;
        note: string;
        total: number;
      };
      expect(row).toEqual({ complete: 0, note: set.note, total: RUNAWAY_TOTAL });
      expect(db.prepare('SELECT count(*) AS n FROM txn_logs WHERE txn_hash = ?').get(HASH)).toEqual({ n: DEFAULT_MAX_LOGS });
    } finally {
      await core.close();
    }
  });
});
