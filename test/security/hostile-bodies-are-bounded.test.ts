import { listenFrom } from '../support/listen.ts';
import Database from 'better-sqlite3-multiple-ciphers';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceClient } from '../../src/main/core/service/client.ts';
import { databaseFileFor } from '../../src/main/core/session/profile.ts';
import { ENDPOINTS } from '../../src/shared/service/endpoints.ts';
import { nestsDeeperThan } from '../../src/shared/service/normalize.ts';
import { type Simulator, startSimulator } from '../../src/sim/server.ts';
import { SIM_NOW, WALLET } from '../support/sim.ts';

/**
 * Findings (issue 26): a gzip bomb (1 MB expanding to 1 GiB) drove the CLI to 3.5 GB over four
 * attempts and a plain 300 MB body to 1.1 GB, since the whole body was read as text before
 * anything looked at it; a body nested 100,000 levels deep failed with "Maximum call stack size
 * exceeded". Here a real HTTP server plays the hostile service, driven through the real client
 * in this process (its memory measured as it reads) and through the CLI as a process (its peak
 * resident memory read from /proc). A body past its endpoint's cap fails after one attempt,
 * saying it was too large and not read; an error body is read only to its first 64 KiB; a deep
 * body is a bad response naming its depth; and nothing of any of them reaches the cache.
 */
const KEY = 'hostile-bodies-key-5d2e';
const MiB = 2 ** 20;
/** The transactions endpoint's cap, as docs/service.md states it. */
const TXN_CAP = 32 * MiB;
/** A generous bound on memory: the caps are 32 and 64 MB; a body read whole took gigabytes. */
const MEMORY_BOUND = 300 * MiB;
const OK_MESSAGE = 'Get transaction history (ID: 1) succeed.';
const TXN_PATH = ENDPOINTS.transactionsByWallet.path;

type Answer = (req: IncomingMessage, res: ServerResponse, n: number) => void | Promise<void>;
interface Hostile {
  url: string;
  /** Every request's path and query without the key, in order. */
  requests: string[];
  /** Bytes of body handed to the socket, per request (in order). */
  sent: number[];
  answer: Answer;
  close(): Promise<void>;
}

async function startHostile(port: number): Promise<Hostile> {
  const service: Hostile = { url: '', requests: [], sent: [], answer: () => undefined, close: async () => undefined };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    url.searchParams.delete('access_key');
    const n = service.requests.push(url.pathname + url.search) - 1;
    service.sent[n] = 0;
    Promise.resolve(service.answer(req, res, n)).catch(() => res.destroy());
  });
  service.url = `http://127.0.0.1:${await listenFrom(server, port, 47199)}`;
  service.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return service;
}

/** `prefix`, `spaces` bytes of spaces and `suffix`, streamed in 1 MiB chunks as the client takes them (chunked unless a length is given). */
function streamed(svc: Hostile, status: number, prefix: string, spaces: number, suffix: string, headers: Record<string, string> = {}): Answer {
  return async (_req, res, n) => {
    res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
    const chunk = Buffer.alloc(MiB, 0x20);
    async function* body() {
      for (const part of [Buffer.from(prefix), ...chunks(spaces, chunk), Buffer.from(suffix)]) {
        svc.sent[n]! += part.length;
        yield part;
      }
    }
    await pipeline(Readable.from(body()), res).catch(() => undefined);
  };
}

function* chunks(total: number, chunk: Buffer): Generator<Buffer> {
  for (let left = total; left > 0; left -= chunk.length) yield left >= chunk.length ? chunk : chunk.subarray(0, left);
}

/** 1 GiB of a valid transactions envelope, gzipped once to about 1 MB (streamed through zlib). */
let BOMB: Buffer;
async function buildBomb(): Promise<Buffer> {
  const parts: Buffer[] = [];
  const chunk = Buffer.alloc(MiB, 0x20);
  async function* body() {
    yield Buffer.from(`{"status":"OK","message":"${OK_MESSAGE}","data":[`);
    yield* chunks(1024 * MiB, chunk);
    yield Buffer.from(']}');
  }
  const gzip = createGzip({ level: 9 });
  gzip.on('data', (d: Buffer) => parts.push(d));
  await pipeline(Readable.from(body()), gzip);
  return Buffer.concat(parts);
}

function bomb(svc: Hostile, withLength: boolean): Answer {
  return (_req, res, n) => {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip', ...(withLength && { 'Content-Length': String(BOMB.length) }) });
    svc.sent[n] = BOMB.length;
    res.end(BOMB);
  };
}

/** What `fn` gave or threw, and the largest growth of this process's resident memory while it ran (sampled every 5 ms). */
async function withMemory<T>(fn: () => Promise<T>): Promise<{ value?: T; error?: Error; growth: number }> {
  const base = process.memoryUsage().rss;
  let peak = base;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
  const growth = () => Math.max(peak, process.memoryUsage().rss) - base;
  try {
    const value = await fn();
    return { value, growth: growth() };
  } catch (error) {
    return { error: error as Error, growth: growth() };
  } finally {
    clearInterval(timer);
  }
}

const client = (svc: Hostile, policy: Record<string, number> = {}) =>
  createServiceClient({ baseUrl: svc.url, accessKey: KEY, policy: { backoffBaseMs: 1, backoffMaxMs: 2, ...policy }, random: () => 0 });
const transactions = (svc: Hostile, policy?: Record<string, number>) =>
  client(svc, policy).transactionsByWallet({ wallet: WALLET, chain: 'eth', page: 1, pageSize: 1000 });

let svc: Hostile;
beforeAll(async () => {
  BOMB = await buildBomb();
  svc = await startHostile(47170);
}, 60_000);
afterAll(() => svc?.close());

function tooLarge(error: unknown, mb: number): void {
  expect(error).toMatchObject({ kind: 'bad-response', retryable: false });
  expect((error as Error).message).toMatch(new RegExp(`larger than ${mb} MB`));
  expect((error as Error).message).toMatch(/did not read it and kept nothing of it/);
}

describe('a body past its endpoint cap fails after one attempt, unread', { timeout: 90_000 }, () => {
  it('states the caps where the endpoints are defined', () => {
    expect(BOMB.length).toBeLessThan(1.1 * MiB);
    expect(ENDPOINTS.transactionsByWallet.maxBodyBytes).toBe(TXN_CAP);
    expect(ENDPOINTS.logsByTxnHash.maxBodyBytes).toBe(32 * MiB);
    for (const e of ['allPositions', 'positionsByUnderlying', 'liquidityAnalysis'] as const) expect(ENDPOINTS[e].maxBodyBytes).toBe(64 * MiB);
  });

  it.each([
    ['chunked', false],
    ['with its true (compressed) Content-Length', true],
  ])('a gzip bomb, 1 MB expanding to 1 GiB (%s)', async (_, withLength) => {
    svc.requests.length = 0;
    svc.answer = bomb(svc, withLength);
    const r = await withMemory(() => transactions(svc));
    tooLarge(r.error, 32);
    expect(r.error!.message).toMatch(/counted as it arrived/);
    expect(svc.requests).toHaveLength(1);
    expect(r.growth).toBeLessThan(MEMORY_BOUND);
  });

  it('a plain 300 MB body without a length: the read stops at the cap and the connection is dropped', async () => {
    svc.requests.length = 0;
    svc.answer = streamed(svc, 200, `{"status":"OK","message":"${OK_MESSAGE}","data":[`, 300 * MiB, ']}');
    const r = await withMemory(() => transactions(svc));
    tooLarge(r.error, 32);
    expect(svc.requests).toHaveLength(1);
    expect(r.growth).toBeLessThan(MEMORY_BOUND);
    // What the server could hand over before the client stopped: the cap and the socket's buffers.
    expect(svc.sent[0]).toBeLessThan(TXN_CAP + 32 * MiB);
  });

  it('a Content-Length past the cap is refused before a byte of the body is read', async () => {
    svc.requests.length = 0;
    let dropped!: () => void;
    const closed = new Promise<void>((resolve) => (dropped = resolve));
    // Headers announcing 10 GiB, then nothing: a client that waited for the body would time out.
    svc.answer = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': String(10 * 1024 * MiB) });
      res.flushHeaders();
      res.on('close', dropped);
    };
    const t = Date.now();
    const r = await withMemory(() => transactions(svc, { timeoutMs: 5_000 }));
    tooLarge(r.error, 32);
    expect(r.error!.message).toMatch(/it announced 10,240 MB/);
    expect(svc.requests).toHaveLength(1);
    expect(Date.now() - t).toBeLessThan(4_000);
    await closed;
  });

  it('the cap itself: a body of exactly 32 MB is read and parsed, one byte more is not', async () => {
    const prefix = `{"status":"OK","message":"${OK_MESSAGE}","data":[{"transaction_history":[],"start_block":1,"end_block":2,"completion_ratio":1}],"padding":"`;
    const suffix = '"}';
    const spaces = TXN_CAP - prefix.length - suffix.length;
    svc.answer = streamed(svc, 200, prefix, spaces, suffix);
    const ok = await transactions(svc);
    expect(ok.body.length).toBe(TXN_CAP);
    expect(ok.data[0]!.transaction_history).toEqual([]);
    // With its length announced too (the fast path refuses only past the cap).
    svc.answer = streamed(svc, 200, prefix, spaces, suffix, { 'Content-Length': String(TXN_CAP) });
    expect((await transactions(svc)).body.length).toBe(TXN_CAP);
    svc.requests.length = 0;
    svc.answer = streamed(svc, 200, prefix, spaces + 1, suffix);
    const over = await withMemory(() => transactions(svc));
    tooLarge(over.error, 32);
    expect(svc.requests).toHaveLength(1);
  });
});

describe('an error body is read only to its first 64 KiB', { timeout: 90_000 }, () => {
  it('a 500 with a 200 MB body: its message kept, the rest not read, memory bounded', async () => {
    svc.requests.length = 0;
    svc.sent.length = 0;
    svc.answer = streamed(svc, 500, '{"message":"the indexer fell over","detail":"', 200 * MiB, '"}');
    const r = await withMemory(() => transactions(svc, { maxAttempts: 2 }));
    expect(r.error).toMatchObject({ kind: 'server', retryable: true });
    expect(r.error!.message).toBe('The service failed with HTTP 500: the indexer fell over. Try again later.');
    // A server error is asked again (the policy's two attempts here), each read only in part.
    expect(svc.requests).toHaveLength(2);
    for (const sent of svc.sent) expect(sent).toBeLessThan(32 * MiB);
    expect(r.growth).toBeLessThan(MEMORY_BOUND);
  });
});

const DEPTH = 100_000;
const deep = '['.repeat(DEPTH) + ']'.repeat(DEPTH);
const DEEP_MESSAGE = /The service sent a response Folioscope cannot read: the response nests arrays and objects deeper than 64 levels/;

describe('a deeply nested body is a bad response naming its depth', () => {
  it.each([
    // An escape in the text makes the key scrub walk the parsed value.
    ['as the data, with an escape in the message', `{"status":"OK","message":"${OK_MESSAGE}\\n","data":${deep}}`],
    // A member the spec does not list is kept, and would be walked when stored.
    [
      'in a member the spec does not list',
      `{"status":"OK","message":"${OK_MESSAGE}","data":[{"transaction_history":[],"start_block":1,"end_block":2,"completion_ratio":1,"extra":${deep}}]}`,
    ],
  ])('%s', async (_, body) => {
    svc.answer = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(body);
    };
    const error = await transactions(svc).then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(error).toMatchObject({ name: 'BadResponseError', kind: 'bad-response', retryable: false });
    expect(error!.message).toMatch(DEEP_MESSAGE);
  });
});

describe('the nesting check reads a text as JSON.parse does', () => {
  const depthOf = (v: unknown): number =>
    v !== null && typeof v === 'object' ? 1 + Math.max(0, ...(Array.isArray(v) ? v : Object.values(v)).map(depthOf)) : 0;
  const agrees = (text: string) => {
    const depth = depthOf(JSON.parse(text));
    expect(nestsDeeperThan(text, depth), text).toBe(false);
    if (depth > 0) expect(nestsDeeperThan(text, depth - 1), text).toBe(true);
  };

  it('counts brackets outside strings only, whatever the escapes', () => {
    for (const text of [
      '1',
      '"[["',
      '[]',
      '{}',
      '{"a":"[[[["}',
      '["\\"[[[",[["\\\\"],"\\\\\\"{{"]]',
      '{"[":{"]":["}\\\\",{"x":"\\u005b"}]}}',
      ' [ [ ] , { } ] ',
    ])
      agrees(text);
  });

  it('agrees with JSON.parse on random values of brackets, quotes and backslashes', () => {
    let seed = 26;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const text = () => Array.from({ length: rand(6) }, () => '[]{}"\\\\ a'[rand(8)]).join('');
    const value = (depth: number): unknown =>
      depth === 0 || rand(4) === 0
        ? text()
        : rand(2)
          ? Array.from({ length: rand(3) + 1 }, () => value(depth - 1))
          : Object.fromEntries(Array.from({ length: rand(3) + 1 }, () => [text(), value(depth - 1)]));
    for (let i = 0; i < 500; i++) agrees(JSON.stringify(value(rand(12))));
  });
});

// --- the CLI as a process -------------------------------------------------------------------

const CLI = join(import.meta.dirname, '../../bin/folioscope.mjs');

/** The CLI in a child process, with its peak resident memory (VmHWM) read from /proc while it runs. */
function runCli(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string; peak: number }> {
  const env: Record<string, string | undefined> = { ...process.env };
  for (const k of Object.keys(env)) if (k.startsWith('FOLIOSCOPE_')) delete env[k];
  env['FOLIOSCOPE_ACCESS_KEY'] = KEY;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let peak = 0;
    const read = () => {
      try {
        const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1];
        if (kb) peak = Math.max(peak, Number(kb) * 1024);
      } catch {
        // The process has ended.
      }
    };
    const poll = setInterval(read, 10);
    child.stdout.on('data', (d) => (stdout += String(d)));
    child.stderr.on('data', (d) => (stderr += String(d)));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('error', reject);
    child.on('exit', read);
    child.on('close', (status) => {
      clearInterval(poll);
      clearTimeout(timer);
      resolve({ status, stdout, stderr, peak });
    });
  });
}

/** What the cache holds of the service's data: every snapshot and transaction, whole. */
function cached(dir: string, url: string): string {
  const db = new Database(databaseFileFor(dir, url), { readonly: true });
  try {
    return JSON.stringify([db.prepare('SELECT * FROM snapshots ORDER BY id').all(), db.prepare('SELECT * FROM transactions ORDER BY rowid').all()]);
  } finally {
    db.close();
  }
}

describe('the CLI against a hostile service', { timeout: 240_000 }, () => {
  const SIM_KEY = 'hostile-bodies-sim-key-1';
  let sim: Simulator;
  // One cache for both tests: the positions of one day, read from a well-behaved service first.
  let dir = '';
  let before = '';
  let baselinePeak = 0;
  afterAll(async () => {
    await sim?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** Every request answered by the reference service, as a well-behaved service would. */
  const proxy: Answer = async (req, res) => {
    const url = new URL(req.url ?? '/', sim.url);
    url.searchParams.set('access_key', SIM_KEY);
    const upstream = await fetch(url);
    const body = Buffer.from(await upstream.arrayBuffer());
    res.writeHead(upstream.status, { 'Content-Type': 'application/json', 'Content-Length': body.length });
    res.end(body);
  };

  beforeAll(async () => {
    for (let port = 47190; !sim; port++) {
      sim = await startSimulator({ accessKey: SIM_KEY, seed: 7, now: () => SIM_NOW, port }).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'EADDRINUSE' || port >= 47199) throw err;
        return undefined as unknown as Simulator;
      });
    }
    // Made here rather than with tempDir(), which a beforeAll inside a describe gives to the first test only.
    dir = mkdtempSync(join(tmpdir(), 'folioscope-test-'));
    const g = ['--data-dir', dir, '--base-url', svc.url];
    expect((await runCli([...g, 'wallet', 'add', WALLET, '--chains', 'eth'])).status).toBe(0);
    svc.answer = proxy;
    const first = await runCli([...g, 'sync', '--no-transactions', '--date', '2025-06-01']);
    expect(first.status, first.stdout + first.stderr).toBe(0);
    baselinePeak = first.peak;
    before = cached(dir, svc.url);
    expect(before).toContain('"endpoint":"allPositions"');
  }, 120_000);

  it('a gzip bomb fails the sync after one request per page, within bounded memory, and nothing reaches the cache', async () => {
    const g = ['--data-dir', dir, '--base-url', svc.url];
    // Transactions, read for the first time: every request answers the bomb.
    svc.requests.length = 0;
    svc.answer = (req, res, n) => void (req.url!.startsWith(TXN_PATH) ? bomb(svc, false)(req, res, n) : proxy(req, res, n));
    const bombed = await runCli([...g, 'sync', '--no-positions']);
    expect(bombed.status).toBe(1);
    expect(bombed.stdout).toMatch(/FAILED\s+Transactions of .*: The service sent a response larger than 32 MB \(counted as it arrived\)/);
    const asked = svc.requests.filter((r) => r.startsWith(TXN_PATH));
    expect(asked.length).toBeGreaterThan(0);
    // None asked twice: a body too large is not retried.
    expect(new Set(asked).size).toBe(asked.length);
    // Against the same CLI's peak for a small sync (the first requests go four at a time).
    expect(bombed.peak - baselinePeak).toBeLessThan(MEMORY_BOUND);
    expect(cached(dir, svc.url)).toBe(before);
  });

  it('a snapshot nested 100,000 levels deep fails naming its depth, and nothing reaches the cache', async () => {
    const g = ['--data-dir', dir, '--base-url', svc.url];
    svc.answer = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(
        `{"status":"OK","message":"Get Positions (ID: 2) succeed.","data":[{"wallet_id":"${WALLET}","date":"2025-06-02T00:00:00Z","positions":[],"extra":${deep}}]}`,
      );
    };
    const nested = await runCli([...g, 'sync', '--no-transactions', '--date', '2025-06-02']);
    expect(nested.status).toBe(1);
    expect(nested.stdout).toMatch(
      /FAILED\s+Positions of .*: The service sent a response Folioscope cannot read: the response nests arrays and objects deeper than 64 levels/,
    );
    expect(nested.stdout + nested.stderr).not.toMatch(/call stack/i);
    expect(cached(dir, svc.url)).toBe(before);
  });
});
