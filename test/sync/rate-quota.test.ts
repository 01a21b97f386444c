import { afterEach, describe, expect, it } from 'vitest';
import { RequestPacer } from '../../src/main/core/service/pacer.ts';
import { countTransactions } from '../../src/main/core/transactions/store/transactions.ts';
import { addWallet } from '../../src/main/core/store/wallets.ts';
import { engineFor } from '../support/engine.ts';
import { useSimulator } from '../support/sim.ts';
import { createDB } from '../support/store.ts';

/**
 * A service that keeps a rate quota, as live ones do: at most N requests served in any rolling
 * second, 429 beyond it, with or without Retry-After. Every job must complete with every row:
 * a refusal for the rate slows the client's one request budget, it does not fail a job.
 */
const PER_CHAIN = 300;
const ctx = useSimulator({ txnsPerWallet: PER_CHAIN });
afterEach(() => ctx.sim.setQuota(null));

const wallets = [...Array(4).keys()].map((i) => `0x${(0xa11ce + i).toString(16).padStart(40, '0')}`);

async function syncAllThroughQuota(retryAfter: boolean) {
  const db = createDB();
  for (const w of wallets) addWallet(db, { address: w, chains: ['eth', 'arb'], label: '' });
  const { client, engine } = engineFor(ctx.sim, db, { transactionPageSize: 100 });
  ctx.sim.setQuota({ perSecond: 10, retryAfter });
  const phases = new Set<string>();
  engine.onProgress((info) => phases.add(info.phase));
  const mark = ctx.sim.requests.length;
  const jobs = wallets.map((w) => engine.syncTransactions(w));
  const started = performance.now();
  const settled = await Promise.allSettled(jobs.map((j) => j.result));
  const seconds = (performance.now() - started) / 1000;
  const seen = ctx.sim.requests.slice(mark);
  return {
    db,
    client,
    phases: [...phases],
    settled,
    seconds,
    served: seen.filter((r) => r.status === 200).length,
    refused: seen.filter((r) => r.status === 429).length,
    states: jobs.map((j) => j.info.state),
  };
}

describe('a backfill through a rate quota', () => {
  it('says it is paced to the service and shows the time left at that pace', { timeout: 120_000 }, async () => {
    const db = createDB();
    addWallet(db, { address: wallets[0]!, chains: ['eth', 'arb'], label: '' });
    const { engine } = engineFor(ctx.sim, db);
    ctx.sim.setQuota({ perSecond: 6, retryAfter: false });
    const seen: Array<{ phase: string; eta: number | null | undefined; left: number }> = [];
    engine.onProgress((info) => seen.push({ phase: info.phase, eta: info.etaSeconds, left: (info.total ?? 0) - info.done }));
    const job = engine.backfill({ wallet: wallets[0]!, from: '2025-01-01', to: '2025-01-10', every: 'day' });
    await job.result;
    expect(job.info.state).toBe('done');
    const paced = seen.filter((s) => /paced to the service's rate limit \(\d+(\.\d)? requests\/s\)/.test(s.phase));
    expect(paced.length).toBeGreaterThan(0);
    // The time left is the work left (three requests a date and chain) at the learned pace.
    const withEta = paced.filter((s) => typeof s.eta === 'number' && s.left > 0);
    expect(withEta.length).toBeGreaterThan(0);
    for (const s of withEta) expect(s.eta!).toBeGreaterThanOrEqual(Math.floor((s.left * 3) / 20));
  });
});

describe('sync through a rate quota', () => {
  it.each([
    ['without Retry-After', false],
    ['with Retry-After', true],
  ])('%s: every job completes with every row, the pace learned from the refusals', { timeout: 120_000 }, async (_name, retryAfter) => {
    const run = await syncAllThroughQuota(retryAfter);
    expect(run.settled.map((s) => s.status)).toEqual(wallets.map(() => 'fulfilled'));
    expect(run.states).toEqual(wallets.map(() => 'done'));
    for (const w of wallets) expect(countTransactions(run.db, w)).toBe(2 * PER_CHAIN);
    console.log(
      `quota 10/s ${retryAfter ? 'with' : 'without'} Retry-After: ${run.served} served, ${run.refused} refused, pace ${run.client.limiter.state.rate?.toFixed(1)}/s, ${run.seconds.toFixed(1)} s`,
    );
    // The quota was met (the test proves nothing otherwise), and the pace settled near it.
    expect(run.refused).toBeGreaterThan(0);
    const rate = run.client.limiter.state.rate;
    expect(rate).not.toBeNull();
    expect(rate!).toBeLessThan(10 * 1.5);
    // Progress says the work goes at the service's pace.
    expect(run.phases.some((p) => /(paced to|waiting for) the service's rate limit/.test(p))).toBe(true);
  });
});

describe('the request budget', () => {
  it('serves waiting wallets in turn: a wallet that queued later is not stuck behind a whale', async () => {
    const pacer = new RequestPacer({ concurrency: 1 });
    const order: string[] = [];
    const task = (name: string) => pacer.run(async () => void order.push(name), name.split('-')[0]);
    const whale = [...Array(6).keys()].map((i) => task(`whale-${i}`));
    const small = [task('small-0'), task('small-1')];
    await Promise.all([...whale, ...small]);
    expect(order).toEqual(['whale-0', 'whale-1', 'small-0', 'whale-2', 'small-1', 'whale-3', 'whale-4', 'whale-5']);
  });

  it('a request cancelled while it waits leaves the queue and frees its turn', async () => {
    const pacer = new RequestPacer({ concurrency: 1 });
    let release!: () => void;
    const first = pacer.run(() => new Promise<void>((r) => (release = r)));
    const abort = new AbortController();
    const cancelled = pacer.run(async () => 'ran', '', abort.signal);
    const after = pacer.run(async () => 'after');
    abort.abort(new Error('cancelled'));
    await expect(cancelled).rejects.toThrow('cancelled');
    expect(pacer.state.queued).toBe(1);
    release();
    await first;
    expect(await after).toBe('after');
  });

  it('reads the quota at a refusal as what was served and what was in flight before the refused request', async () => {
    let now = 0;
    const pacer = new RequestPacer({ concurrency: 4, now: () => now });
    // Sixteen answered in the last second; three sent before the refused one are still in
    // flight (a gateway counting on arrival let them in): the quota shown is 19, not 16.
    for (let i = 0; i < 16; i++) pacer.served();
    const release: Array<() => void> = [];
    const inFlight = [1, 2, 3].map(() => pacer.run(() => new Promise<void>((r) => release.push(r))));
    now = 10;
    await pacer.run(async (sentAt) => pacer.refused(sentAt, null));
    expect(pacer.state.rate).toBeCloseTo(0.9 * 19, 5);
    for (const r of release) r();
    await Promise.all(inFlight);
  });

  it('a send made late keeps its slot (up to half an interval): the next is due an interval after the slot', async () => {
    let now = 0;
    const timers: Array<{ at: number; fn: () => void }> = [];
    const pacer = new RequestPacer({
      concurrency: 4,
      rate: 10,
      now: () => now,
      setTimer: (fn, ms) => {
        const t = { at: now + ms, fn };
        timers.push(t);
        return () => timers.splice(timers.indexOf(t), 1);
      },
    });
    const sent: number[] = [];
    const tasks = [0, 1, 2].map(() => pacer.run(async (at) => void sent.push(at)));
    await Promise.resolve();
    expect(sent).toEqual([0]);
    // The wake-up due at 100 ms comes 40 ms late (the event loop was busy): that send goes at
    // 140 ms, and the next is due at 200 ms, its slot, not at 240 ms.
    now = 140;
    timers.shift()!.fn();
    await Promise.resolve();
    expect(sent).toEqual([0, 140]);
    expect(pacer.waitMs()).toBe(60);
    now = 200;
    while (timers.length) timers.shift()!.fn();
    await Promise.all(tasks);
    expect(sent).toEqual([0, 140, 200]);
  });

  it('after a refusal, sends no faster than the pace, and a Retry-After holds every send', async () => {
    let now = 0;
    const pacer = new RequestPacer({ concurrency: 4, now: () => now });
    // Ten served in the last second, then a refusal: the pace is a share of those ten.
    for (let i = 0; i < 10; i++) pacer.served();
    pacer.refused(now, null);
    const rate = pacer.state.rate!;
    expect(rate).toBeGreaterThan(5);
    expect(rate).toBeLessThan(10);
    expect(pacer.waitMs()).toBe(Math.round(1000 / rate));
    // A refusal of a request sent before that cut, or within a second after it (the refusing
    // window is still full), is the same overload: no second cut.
    pacer.refused(now - 1, null);
    now += 500;
    pacer.refused(now, null);
    expect(pacer.state.rate).toBe(rate);
    // A second later it is new evidence: the pace is cut again.
    now += 500;
    pacer.refused(now, null);
    expect(pacer.state.rate).toBeLessThan(rate);
    // Refusals in a row with nothing served between pause every send, longer each time
    // (the second 2 s, the third 4 s): more than a Retry-After this short asks.
    expect(pacer.waitMs()).toBeGreaterThanOrEqual(3000);
    // A request served ends that; then a Retry-After holds sends until it has passed.
    now += 10;
    pacer.served();
    pacer.refused(now - 1, 3000);
    expect(pacer.waitMs()).toBe(3000);
    expect(pacer.state.holdUntil).toBe(now + 3000);
  });
});
