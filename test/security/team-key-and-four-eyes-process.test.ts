/**
 * The team server as an operator runs it (a process, `folioscope server`, the service's key in
 * FOLIOSCOPE_ACCESS_KEY, a real sync against the reference service), attacked by its own people:
 *
 * - four eyes: the owner who prepared a close tries to approve it through a second session and
 *   through an API token of their own; a preparer rejects, a viewer approves, a preparer reopens;
 * - the key: searched for in every page, answer, event, download, the server's output and every
 *   file of its data folder, in the spellings a leak would take.
 *
 * The server's clock is pinned to the simulator's (test/support/clock.mjs), so the month closed is
 * in the past whatever day the test runs.
 */
import { spawnSync } from 'node:child_process';
import { request } from 'node:http';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { PeriodCloseDetail } from '../../src/shared/closes.ts';
import type { JobInfo } from '../../src/shared/model.ts';
import { firstLine, runCliSync, startCli } from '../support/cli-process.ts';
import { SIM_NOW, useSimulator, WALLET } from '../support/sim.ts';
import { tempDir } from '../support/store.ts';

/** Distinctive, so a find is this key and nothing else. */
const KEY = 'fsk-canary-Q7w2Lx9Tz4Vb';
/** The server's port, as it printed it (started on any free port: a fixed one may be taken). */
let PORT = 0;
let ORIGIN = '';
const PASSWORD = 'correct horse battery';
const CLOCK = join(import.meta.dirname, '../support/clock.mjs');
const ctx = useSimulator({ accessKey: KEY });
const dir = tempDir();
/** The people are in the cache of the folder's service: every command names the same one. */
let at: string[] = [];
const started: { kill(): void }[] = [];
afterAll(() => started.forEach((c) => c.kill()));

/** Everything a person received, searched for the key at the end. */
const received: string[] = [];

interface Answer {
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}
function http(path: string, o: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: PORT, path, method: o.method ?? 'GET', headers: { Host: `127.0.0.1:${PORT}`, ...o.headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks).toString('latin1');
        received.push(body, JSON.stringify(res.headers));
        resolve({ status: res.statusCode!, body, headers: res.headers });
      });
    });
    req.on('error', reject);
    if (o.body !== undefined) req.write(o.body);
    req.end();
  });
}
interface Caller {
  headers: Record<string, string>;
}
async function signIn(name: string): Promise<Caller> {
  const res = await http('/sign-in', {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: ORIGIN },
    body: new URLSearchParams({ name, password: PASSWORD }).toString(),
  });
  expect(res.status).toBe(303);
  const cookie = /^([^;]+)/.exec(String(res.headers['set-cookie']))![1]!;
  const csrf = (JSON.parse((await http('/api/session', { headers: { Cookie: cookie } })).body) as { csrf: string }).csrf;
  return { headers: { Cookie: cookie, 'X-Folio-CSRF': csrf, Origin: ORIGIN } };
}
const byToken = (token: string): Caller => ({ headers: { Authorization: `Bearer ${token}` } });
async function call<T = unknown>(
  who: Caller,
  op: string,
  input?: unknown,
): Promise<{ status: number; ok: boolean; result: T; error?: { kind: string; said?: { code: string } } }> {
  const res = await http(`/api/${op}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...who.headers },
    body: input === undefined ? '' : JSON.stringify(input),
  });
  return { status: res.status, ...(JSON.parse(res.body) as { ok: boolean; result: T }) };
}
async function waitForJobs(who: Caller, ids: string[]): Promise<JobInfo[]> {
  for (;;) {
    const jobs = (await call<JobInfo[]>(who, 'sync.jobs')).result.filter((j) => ids.includes(j.id));
    if (jobs.length === ids.length && jobs.every((j) => !['queued', 'running'].includes(j.state))) return jobs;
    await new Promise((r) => setTimeout(r, 100));
  }
}

function user(args: string[]): void {
  const r = runCliSync([...at, 'users', ...args], { env: { FOLIOSCOPE_USER_PASSWORD: PASSWORD } });
  expect(r.status, r.stderr).toBe(0);
}

describe('where the team server may listen, as a process', () => {
  it('refuses, before opening anything, every spelling of a network address without TLS, and a proxy named by its hostname', () => {
    const fresh = tempDir();
    const refusals: [string[], RegExp][] = [
      [['--host', '0.0.0.0', '--behind-proxy', 'proxy.internal'], /needs the proxy's IP address/],
      [['--host', '::'], /over plain HTTP/],
      [['--host', '0'], /over plain HTTP/],
      [['--host', '127.1'], /over plain HTTP/],
      [['--host', '127.0.0.1.nip.io'], /over plain HTTP/],
      [['--host', '192.0.2.2'], /over plain HTTP/],
      [['--tls-cert', 'only-one.pem'], /go together/],
    ];
    for (const [args, said] of refusals) {
      const r = runCliSync(['--data-dir', fresh, 'server', ...args]);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(said);
    }
    expect(readdirSync(fresh).filter((f) => f.endsWith('.sqlite'))).toEqual([]);
  });
});

describe('the team server as a process, attacked by its people', { timeout: 240_000 }, () => {
  let server: ReturnType<typeof startCli>;
  let events: { text: string; req: ReturnType<typeof request> | null } = { text: '', req: null };
  let ownerToken = '';
  let close: PeriodCloseDetail;

  it('starts with the key from the environment, and people of each role', async () => {
    at = ['--data-dir', dir, '--base-url', ctx.sim.url];
    expect(runCliSync([...at, 'server', 'init'], { input: `olive\n${PASSWORD}\n` }).status).toBe(0);
    user(['add', 'abe', '--role', 'approver']);
    user(['add', 'pia', '--role', 'preparer']);
    user(['add', 'val', '--role', 'viewer']);
    const made = runCliSync([...at, 'users', 'token', 'olive', '--role', 'owner', '--label', 'cron']);
    expect(made.status).toBe(0);
    ownerToken = made.stdout.trim();
    server = startCli([...at, 'server', '--port', '0'], {
      FOLIOSCOPE_ACCESS_KEY: KEY,
      FOLIOSCOPE_TEST_CLOCK: String(SIM_NOW),
      NODE_OPTIONS: `${process.env['NODE_OPTIONS'] ?? ''} --import ${CLOCK}`.trim(),
    });
    started.push(server.child);
    ORIGIN = await firstLine(server.child, 'server').catch(() => server.out.stderr);
    expect(ORIGIN).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    PORT = Number(new URL(ORIGIN).port);
    // A viewer listens to every event of the run.
    const val = await signIn('val');
    await new Promise<void>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: PORT, path: '/api/events', headers: { Host: `127.0.0.1:${PORT}`, ...val.headers } }, (res) => {
        expect(res.statusCode).toBe(200);
        res.on('data', (c) => (events.text += String(c)));
        resolve();
      });
      req.on('error', reject);
      req.end();
      events = { text: '', req };
    });
  });

  it('syncs for the owner, who prepares a close: their second session and their own token may not approve it', async () => {
    const olive = await signIn('olive');
    expect((await call(olive, 'wallets.add', { address: WALLET, chains: ['eth'], label: 'Treasury' })).ok).toBe(true);
    const jobs = [(await call<JobInfo>(olive, 'sync.transactions', { wallet: WALLET })).result.id];
    for (const date of ['2026-08-31', '2026-09-30', '2026-10-31'])
      jobs.push((await call<JobInfo>(olive, 'sync.positions', { wallet: WALLET, date })).result.id);
    expect((await waitForJobs(olive, jobs)).map((j) => j.state)).toEqual(['done', 'done', 'done', 'done']);
    const prepared = await call<PeriodCloseDetail>(olive, 'closes.prepare', { wallet: WALLET, month: '2026-10' });
    expect(prepared.ok, JSON.stringify(prepared.error)).toBe(true);
    close = prepared.result;
    expect(close).toMatchObject({ state: 'prepared', preparedBy: 'olive' });

    const again = await signIn('olive');
    const own = await call(again, 'closes.approve', { id: close.id });
    expect(own.error?.said?.code).toBe('close.ownApproval');
    const token = await call(byToken(ownerToken), 'closes.approve', { id: close.id });
    expect(token.error?.said?.code).toBe('close.ownApproval');
    // Roles without approve: refused at the gate.
    expect((await call(await signIn('pia'), 'closes.reject', { id: close.id, reason: 'mine now' })).status).toBe(403);
    expect((await call(await signIn('val'), 'closes.approve', { id: close.id })).status).toBe(403);
    expect((await call(olive, 'closes.get', { id: close.id })).result).toMatchObject({ state: 'prepared' });
  });

  it('another person approves it; a preparer may not reopen it', async () => {
    const abe = await signIn('abe');
    expect((await call(abe, 'closes.approve', { id: close.id })).result).toMatchObject({ state: 'closed', preparedBy: 'olive', approvedBy: 'abe' });
    expect((await call(await signIn('pia'), 'closes.reopen', { id: close.id, reason: 'let me change it' })).status).toBe(403);
  });

  it('the key is in no page, answer, event, download, output or file of the data folder', async () => {
    const olive = await signIn('olive');
    for (const path of ['/', '/sign-in', '/sign-in.css', '/api/session']) await http(path, { headers: olive.headers });
    for (const op of ['app.info', 'key.status', 'settings.get', 'service.check', 'service.doctor', 'wallets.list', 'sync.jobs', 'audit.list', 'logs.get'])
      await call(olive, op, op === 'wallets.list' ? {} : op === 'audit.list' ? {} : op === 'logs.get' ? { chain: 'eth', txnHash: '0x00' } : undefined);
    // The service answering nonsense: the errors reach every reader (job events, service.check), without the key.
    for (const kind of ['malformed-json', 'status-not-ok'] as const) {
      ctx.sim.setFaults([{ kind }]);
      const failing = await call<JobInfo>(olive, 'sync.positions', { wallet: WALLET, date: '2026-07-31' });
      const [failed] = await waitForJobs(olive, [failing.result.id]);
      expect(failed!.state).toBe('failed');
      await call(olive, 'service.check');
    }
    ctx.sim.setFaults([]);
    const exported = await call<JobInfo>(olive, 'userData.export');
    const [done] = await waitForJobs(olive, [exported.result.id]);
    const dataFile = await http(`/api/download/${done!.output!.downloadId}`, { headers: olive.headers });
    expect(dataFile.status).toBe(200);
    expect(dataFile.headers['content-type']).toBe('application/json');
    const bundle = await call<JobInfo>(olive, 'export.start', { format: 'bundle', close: close.id });
    const [zipped] = await waitForJobs(olive, [bundle.result.id]);
    // Each download with its own type: a bundle is a zip (it was once served as text/csv).
    const zip = await http(`/api/download/${zipped!.output!.downloadId}`, { headers: olive.headers });
    expect(zip.status).toBe(200);
    expect(zip.headers['content-type']).toBe('application/zip');

    server.child.kill('SIGTERM');
    const ended = await server.done;
    expect(ended.status).toBe(0);
    events.req?.destroy();
    expect(events.text).toContain('event: sync.progress');

    const spellings = [KEY, encodeURIComponent(KEY), Buffer.from(KEY).toString('base64'), Buffer.from(KEY).toString('hex'), KEY.split('').reverse().join('')];
    const everything = [...received, events.text, ended.stdout, ended.stderr].join('\n');
    for (const s of spellings) expect(everything).not.toContain(s);
    // Every file the server wrote (the cache, its WAL, app.json, downloads, logs), as bytes; the
    // search itself finds what is there (the wallet's address), so an empty answer means something.
    expect(spawnSync('grep', ['-rlaF', WALLET, dir], { encoding: 'utf8' }).stdout).not.toBe('');
    for (const s of spellings) {
      const found = spawnSync('grep', ['-rlaF', s, dir], { encoding: 'utf8' });
      expect(found.stdout, `${s} found in files`).toBe('');
    }
  });
});
