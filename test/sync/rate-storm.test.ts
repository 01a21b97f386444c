import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createServiceClient } from '../../src/main/core/service/client.ts';
import { RequestPacer } from '../../src/main/core/service/pacer.ts';
import { addWallet } from '../../src/main/core/store/wallets.ts';
import { SyncEngine } from '../../src/main/core/sync/engine.ts';
import { runCliSync, startCli } from '../support/cli-process.ts';
import { SIM_NOW, WALLET } from '../support/sim.ts';
import { createDB, tempDir } from '../support/store.ts';

/**
 * A service that refuses every request with 429 and `Retry-After: 1`: the client honoured each
 * answer and asked again, about four requests a second for ten minutes (596 requests in 150 s).
 * Now each refusal in a row pauses every send longer (one request at a time), the job says it
 * waits and how long, and once the service has refused everything for the policy's limit the
 * job fails saying so: a bounded number of requests. The pacer's clock jumps to each wait's end
 * (its timer and clock are injected), so the test waits for no real second.
 */
const MAX_REFUSING_MS = 600_000;
/** Above what the bounded client sends in ten minutes of refusals; the storm sent 4 a second. */
const CEILING = 30;

let close: (() => Promise<void>) | null = null;
afterEach(async () => {
  await close?.();
  close = null;
});

async function refusingService(): Promise<{ url: string; count: () => number }> {
  let count = 0;
  const server = createServer((_req, res) => {
    count++;
    const body = '{"status":"ERROR","message":"rate limit exceeded"}';
    res.writeHead(429, { 'Content-Type': 'application/json', 'Retry-After': '1', 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, count: () => count };
}

describe('a service that refuses every request for its rate', () => {
  it('is asked ever more slowly, the job says it waits, and fails once refused for the limit: requests bounded', { timeout: 60_000 }, async () => {
    const service = await refusingService();
    // A clock that jumps to the end of each wait the pacer sets, instead of waiting it.
    let clock = SIM_NOW;
    const setTimer = (fn: () => void, ms: number) => {
      let live = true;
      const at = clock + ms;
      setImmediate(() => {
        if (!live) return;
        clock = Math.max(clock, at);
        fn();
      });
      return () => {
        live = false;
      };
    };
    const limiter = new RequestPacer({ concurrency: 4, now: () => clock, setTimer });
    const client = createServiceClient({
      baseUrl: service.url,
      accessKey: 'rate-storm-test-key',
      limiter,
      policy: { timeoutMs: 5000, maxRateLimitedMs: MAX_REFUSING_MS },
    });
    const db = createDB();
    addWallet(db, { address: WALLET, chains: ['eth', 'arb'], label: 'Treasury' });
    const engine = new SyncEngine({ db, client, now: () => SIM_NOW });
    const phases: string[] = [];
    engine.onProgress((info) => phases.push(info.phase));
    // A client that does not slow down is stopped here rather than left to run for minutes.
    const guard = setInterval(() => {
      if (service.count() > CEILING) void close?.();
    }, 10);
    try {
      const job = engine.syncPositions(WALLET, { date: '2025-06-01' });
      await job.result.catch(() => undefined);
      expect(service.count()).toBeLessThanOrEqual(CEILING);
      expect(job.info.state).toBe('failed');
      expect(job.info.error?.message).toMatch(/refused every request for its rate limit for 10 minutes/);
      // Refused for the whole limit, by the pacer's clock: the client did wait, ever longer.
      expect(clock - SIM_NOW).toBeGreaterThanOrEqual(MAX_REFUSING_MS);
      const waits = phases.filter((p) => /^rate-limited by the service: waiting \d+ s before trying again$/.test(p));
      expect(waits.length).toBeGreaterThan(2);
      const seconds = [...new Set(waits.map((p) => Number(/waiting (\d+) s/.exec(p)![1])))];
      expect(seconds).toContain(8);
      expect(Math.max(...seconds)).toBe(60);
    } finally {
      clearInterval(guard);
    }
  });
});

describe('folioscope sync against it, as a process', () => {
  it('prints that it is rate-limited and how long it waits, also where no progress bar is drawn', { timeout: 60_000 }, async () => {
    const service = await refusingService();
    const dir = tempDir();
    const g = ['--data-dir', dir, '--base-url', service.url];
    const key = { FOLIOSCOPE_ACCESS_KEY: 'rate-storm-test-key' };
    expect(runCliSync([...g, 'wallet', 'add', WALLET, '--chains', 'eth'], { env: key }).status).toBe(0);
    const sync = startCli([...g, 'sync', '--date', '2025-06-01'], key);
    try {
      // The first line comes with the first refusals: read as it is printed, the command then stopped.
      const line = await new Promise<string>((resolve, reject) => {
        const look = () => {
          const m = /^folioscope: .*rate-limited by the service: waiting \d+ s before trying again$/m.exec(sync.out.stderr);
          if (m) resolve(m[0]);
        };
        sync.child.stderr!.on('data', look);
        sync.child.once('exit', () => reject(new Error(`sync ended without saying it waits: ${sync.out.stderr}`)));
        look();
      });
      expect(line).toContain('Positions of');
    } finally {
      sync.child.kill('SIGKILL');
      await sync.done;
    }
  });
});
