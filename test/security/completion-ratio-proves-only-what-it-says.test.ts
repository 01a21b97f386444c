import { listenFrom } from '../support/listen.ts';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCore } from '../../src/main/core/app.ts';
import { listRanges } from '../../src/main/core/transactions/store/transactions.ts';
import { type Simulator, startSimulator } from '../../src/sim/server.ts';
import { cliAsync } from '../support/hostile-service.ts';
import { KEY, SIM_NOW, WALLET } from '../support/sim.ts';
import { cacheOf, tempDir } from '../support/store.ts';
import { waitForJobs } from '../support/jobs.ts';

/**
 * Finding (issue 26): a range read to its end was closed complete when the service's
 * completion_ratio was null or anything ≥ 1 (2, 1.5): `completionRatio === null ||
 * completionRatio >= 1`, and the pages' ratios were combined as min(1, ratio), so a 2 became
 * a 1. The client reads the ratio as the share of the range indexed (docs/service.md): only 1
 * (within float rounding) proves a range whole, and only if every page of the range that stated
 * a ratio said so. No ratio, or one that is not a fraction, proves nothing: the range stays
 * incomplete, saying so, and `folioscope sync` exits 3, not 0.
 */
const TRANSACTIONS = '/v3/transactions/txn_by_wallet';

/** What the service says per transactions page (1-based page asked): a number, null, or the member left out. */
type Ratio = number | null | 'absent';
let ratioFor: (page: number) => Ratio = () => 1;

let sim: Simulator;
let proxy: { url: string; server: Server };
beforeAll(async () => {
  sim = await startSimulator({ accessKey: KEY, seed: 7, now: () => SIM_NOW, txnsPerWallet: 250 });
  proxy = await startRatioProxy(47231);
});
afterAll(async () => {
  proxy.server.closeAllConnections();
  await new Promise((r) => proxy.server.close(r));
  await sim.close();
});
beforeEach(() => {
  ratioFor = () => 1;
});

/** The reference service, with the completion_ratio of every transactions page as the test says. */
async function startRatioProxy(first: number): Promise<{ url: string; server: Server }> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const raw = req.url ?? '/';
    void (async () => {
      const upstream = await fetch(new URL(raw, sim.url));
      let body = await upstream.text();
      const url = new URL(raw, 'http://x');
      if (url.pathname === TRANSACTIONS && upstream.status === 200) {
        const json = JSON.parse(body) as { data: Array<Record<string, unknown>> };
        const ratio = ratioFor(Number(url.searchParams.get('page') ?? '1'));
        for (const d of json.data) {
          if (ratio === 'absent') delete d['completion_ratio'];
          else d['completion_ratio'] = ratio;
        }
        body = JSON.stringify(json);
      }
      res.writeHead(upstream.status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) });
      res.end(body);
    })().catch((err: unknown) => {
      res.writeHead(599);
      res.end(String(err));
    });
  });
  const port = await listenFrom(server, first, 47299);
  return { url: `http://127.0.0.1:${port}`, server };
}

/** One wallet's transactions synced through the contract, as the app does; what the user is shown after. */
async function syncWith(ratio: (page: number) => Ratio) {
  ratioFor = ratio;
  const core = await createCore({ dataDir: tempDir(), shell: 'web', baseUrl: proxy.url, env: { FOLIOSCOPE_ACCESS_KEY: KEY } });
  try {
    await core.call('wallets.add', { address: WALLET, chains: ['eth'] });
    const [job] = await waitForJobs(core, [await core.call('sync.transactions', { wallet: WALLET })]);
    const [status] = await core.call('wallets.status', undefined);
    const db = await cacheOf(core);
    return {
      job: job!,
      status: status!,
      ranges: listRanges(db, WALLET, 'eth'),
      transactions: (db.prepare('SELECT count(*) AS n FROM transactions').get() as { n: number }).n,
    };
  } finally {
    await core.close();
  }
}

const every = (r: Ratio) => () => r;

describe('completion_ratio closes a range only when it proves it whole', { timeout: 120_000 }, () => {
  it.each([
    ['1', 1],
    ['1 within float rounding (0.9999999999999999)', 0.9999999999999999],
  ] as const)('%s: the range is complete, and so is the sync', async (_name, ratio) => {
    const r = await syncWith(every(ratio));
    expect(r.transactions).toBe(250);
    expect(r.ranges.map((x) => x.state)).toEqual(['complete']);
    expect(r.job.completeness).toMatchObject({ state: 'complete' });
    expect(r.status).toMatchObject({ incomplete: false, incompleteReasons: [] });
  });

  it.each([
    ['2', 2],
    ['1.5', 1.5],
    ['-1', -1],
    ['1.000001', 1.000001],
  ] as const)('%s is not a fraction: the range stays incomplete, the reason naming the value', async (name, ratio) => {
    const r = await syncWith(every(ratio));
    // The rows are kept; the range is what stays open.
    expect(r.transactions).toBe(250);
    expect(r.ranges.map((x) => x.state)).toEqual(['incomplete']);
    const why = `the service reported completion_ratio ${name}, which is not a fraction: the range is kept incomplete and read again`;
    expect(r.ranges[0]!.reason).toBe(why);
    expect(r.job.completeness).toMatchObject({ state: 'incomplete', reasons: [`eth: ${why}`] });
    expect(r.status.incomplete).toBe(true);
    expect(r.status.incompleteReasons).toEqual([`eth: ${why}`]);
  });

  it.each([
    ['null', null],
    ['absent', 'absent'],
  ] as const)('%s: nothing says the range is indexed whole, so it stays incomplete, saying so', async (_name, ratio) => {
    const r = await syncWith(every(ratio));
    expect(r.transactions).toBe(250);
    expect(r.ranges.map((x) => x.state)).toEqual(['incomplete']);
    expect(r.ranges[0]!.reason).toMatch(/^the service sent no completion_ratio for this range, so nothing says it has indexed all of it/);
    expect(r.job.completeness).toMatchObject({ state: 'incomplete' });
    expect(r.status.incomplete).toBe(true);
  });

  it('0.9999: still indexing, the range is split and its open part says how much is indexed', async () => {
    const r = await syncWith(every(0.9999));
    expect(r.ranges.at(-1)).toMatchObject({ state: 'incomplete', reason: null, completionRatio: 0.9999 });
    expect(r.job.completeness).toMatchObject({
      state: 'incomplete',
      reasons: [expect.stringMatching(/indexed 99\.9% of the range asked \(completion_ratio 0\.9999\)/)],
    });
    expect(r.status.incomplete).toBe(true);
  });

  it.each([
    ['1 on the first page, 2 on the next', (page: number) => (page === 1 ? 1 : 2), /completion_ratio 2, which is not a fraction/],
    ['1 on the first page, none on the next', (page: number) => (page === 1 ? 1 : null), null],
    ['0.5 on the first page, 1 on the next', (page: number) => (page === 1 ? 0.5 : 1), /indexed 50\.0%/],
  ] as const)('what every page said counts: %s', async (_name, ratio, why) => {
    const r = await syncWith(ratio);
    if (why === null) {
      // A page that states nothing adds nothing: the page that said 1 proves the range.
      expect(r.ranges.map((x) => x.state)).toEqual(['complete']);
      return;
    }
    expect(r.ranges.some((x) => x.state === 'incomplete')).toBe(true);
    expect(r.job.completeness).toMatchObject({ state: 'incomplete', reasons: [expect.stringMatching(why)] });
  });

  it('reconcile names a ratio that proves nothing, not "still indexing"', async () => {
    ratioFor = every(2);
    const core = await createCore({ dataDir: tempDir(), shell: 'web', baseUrl: proxy.url, env: { FOLIOSCOPE_ACCESS_KEY: KEY } });
    try {
      await core.call('wallets.add', { address: WALLET, chains: ['eth'] });
      await waitForJobs(core, [await core.call('sync.transactions', { wallet: WALLET })]);
      const r = await core.call('reconcile.get', { wallet: WALLET, from: '2025-01-01', to: '2025-06-01' });
      expect(r.problems.map((p) => p.message)).toContain(
        'transactions of the period are incomplete: the service reported completion_ratio 2, which is not a fraction: the range is kept incomplete and read again',
      );
    } finally {
      await core.close();
    }
  });
});

describe('folioscope sync as a process', { timeout: 120_000 }, () => {
  const run = (dir: string, args: string[]) => cliAsync(['--data-dir', dir, '--base-url', proxy.url, ...args], { env: { FOLIOSCOPE_ACCESS_KEY: KEY } });

  it.each([
    [2, 3],
    [null, 3],
    [0.9999, 3],
    [1, 0],
  ] as const)('completion_ratio %s: exit %i', async (ratio, exit) => {
    ratioFor = every(ratio);
    const dir = tempDir();
    expect((await run(dir, ['wallet', 'add', WALLET, '--chains', 'eth'])).status).toBe(0);
    const sync = await run(dir, ['sync', '--no-positions']);
    expect(sync.status, sync.stdout + sync.stderr).toBe(exit);
    if (exit === 3) expect(sync.stdout + sync.stderr).toMatch(/INCOMPLETE/);
    if (ratio === 2) expect(sync.stdout + sync.stderr).toContain('completion_ratio 2, which is not a fraction');
  });
});
