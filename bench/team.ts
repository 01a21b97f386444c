/**
 * `npm run bench -- team` (issue 37 item 8): people at once over HTTP — views, timeline pages and
 * edits — while a sync writes, beside one person alone on the same server in the same run. Over
 * the fund of `npm run bench -- scale` (bench/scale.ts `fund`, kept in bench/.data and copied
 * here, never written to): FOLIOSCOPE_BENCH_TEAM_WALLETS wallets × 6 chains (1,000 by default,
 * the issue's scale; 50 for a quick run), FOLIOSCOPE_BENCH_TXNS transactions per wallet chain.
 *
 * Each person runs the same mix for FOLIOSCOPE_BENCH_TEAM_SECONDS (60): a view (the summary
 * Overview asks first, at all wallets, a group or one wallet), a timeline page (the newest, or the
 * next from a cursor), and an edit (a note on a transaction of their own). Every answer's status
 * is counted; every edit the server acknowledged is read back at the end ("no edit lost"). The
 * sync files positions of the fund's wallets at dates not yet cached, one job after another, for
 * the whole run. Figures are printed beside their targets, never asserted.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Envelope } from '../src/shared/contract.ts';
import type { JobInfo, TimelinePage, WalletGroup } from '../src/shared/model.ts';
import { fundWallet } from '../test/support/fund.ts';
import { fmt, machine, percentile, report } from './lib.ts';
import { fund } from './scale.ts';

const WALLETS = Number(process.env['FOLIOSCOPE_BENCH_TEAM_WALLETS'] ?? 1000);
const PEOPLE = Number(process.env['FOLIOSCOPE_BENCH_TEAM_PEOPLE'] ?? 10);
const SECONDS = Number(process.env['FOLIOSCOPE_BENCH_TEAM_SECONDS'] ?? 60);
/** The fund's positions date (bench/scale.ts). */
const DATE = '2026-10-31';
const TARGET_MS = 300;

type Kind = 'view' | 'timeline' | 'edit';

/** One person's way to the server: an operation posted, its HTTP status and envelope. */
export interface Caller {
  person: string;
  post(op: string, input: unknown): Promise<{ status: number; body: Envelope<unknown> | null }>;
}

/** What a server under test gives the bench: a caller per person (and one for the sync), its process, and its end. */
export interface Served {
  callers(count: number): Promise<Caller[]>;
  /** Who starts the sync (a person allowed to: the loopback shell's one user, a team's preparer). */
  syncer(): Promise<Caller>;
  pid: number;
  close(): Promise<void>;
}

const CLI = join(import.meta.dirname, '../bin/folioscope.mjs');

/** A POST of one operation with `headers`, its status and envelope (null when the body is not JSON). */
export async function postJson(url: string, headers: Record<string, string>, input: unknown): Promise<{ status: number; body: Envelope<unknown> | null }> {
  let res: Response;
  let text: string;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: input === undefined ? '' : JSON.stringify(input),
    });
    text = await res.text();
  } catch (err) {
    // The connection failed (reset, refused): counted as status 0 with its cause, never thrown,
    // so one failure is a figure of the run rather than its end.
    const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message;
    return { status: 0, body: { ok: false, error: { kind: `network ${cause}`, message: String(err), retryable: true } } };
  }
  try {
    return { status: res.status, body: JSON.parse(text) as Envelope<unknown> };
  } catch {
    return { status: res.status, body: null };
  }
}

/** `folioscope ARGS` started as a user starts it, and the first line it prints (its URL). */
export async function startServer(args: readonly string[]): Promise<{ child: ChildProcess; firstLine: string }> {
  const env = { ...process.env };
  delete env['FOLIOSCOPE_ACCESS_KEY'];
  delete env['FOLIOSCOPE_BENCH_CHILD'];
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'inherit'], env });
  const firstLine = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`folioscope ${args.join(' ')} exited ${code} before it printed its URL`)));
  });
  return { child, firstLine };
}

export async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const gone = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await gone;
}

/** The loopback web shell (`folioscope serve`): every person is its one user (the token), told apart by name in the figures only. */
async function loopback(dataDir: string): Promise<Served> {
  const { child, firstLine } = await startServer(['--data-dir', dataDir, 'serve', '--port', '0']);
  const url = new URL(firstLine);
  const token = url.searchParams.get('token')!;
  const app = `${url.origin}${url.pathname}`;
  const caller = (person: string): Caller => ({ person, post: (op, input) => postJson(`${app}api/${op}`, { 'x-folio-token': token }, input) });
  return {
    callers: async (count) => Array.from({ length: count }, (_, i) => caller(`person-${i + 1}`)),
    syncer: async () => caller('sync'),
    pid: child.pid!,
    close: () => stopServer(child),
  };
}

interface Tally {
  ms: Record<Kind, number[]>;
  statuses: Map<number, number>;
  refused: Map<string, number>;
  /** Each acknowledged edit's transaction and the note it set last. */
  edits: Map<string, { wallet: string; chain: string; txnHash: string; note: string }>;
  editsAcknowledged: number;
}

const newTally = (): Tally => ({ ms: { view: [], timeline: [], edit: [] }, statuses: new Map(), refused: new Map(), edits: new Map(), editsAcknowledged: 0 });

/** A person's own transactions to note: the newest page of their wallet. */
async function ownTransactions(c: Caller, wallet: string): Promise<Array<{ wallet: string; chain: string; txnHash: string }>> {
  const { body } = await c.post('timeline.page', { wallet, limit: 20 });
  if (!body?.ok) throw new Error(`${c.person}: the timeline of ${wallet} was refused: ${body ? body.error.message : 'no JSON'}`);
  return (body.result as TimelinePage).rows.map((r) => ({ wallet: r.wallet, chain: r.chain, txnHash: r.txnHash }));
}

/** One person's mix until `until`: views, timeline pages and edits, each timed from request to answer. */
async function personLoop(c: Caller, index: number, until: number, tally: Tally, group: number | null): Promise<void> {
  const wallet = fundWallet((index * 37) % WALLETS);
  const own = await ownTransactions(c, wallet);
  let cursor: string | null = null;
  for (let k = 0; performance.now() < until; k++) {
    const kind: Kind = k % 5 === 4 ? 'edit' : k % 2 === 0 ? 'view' : 'timeline';
    let op: string;
    let input: unknown;
    let txn: (typeof own)[number] | undefined;
    if (kind === 'view') {
      op = 'portfolio.summary';
      const scope = k % 3;
      input = { date: DATE, ...(scope === 1 && group !== null ? { group } : scope === 2 ? { wallet } : {}) };
    } else if (kind === 'timeline') {
      op = 'timeline.page';
      input = { limit: 100, ...(cursor ? { cursor } : {}) };
    } else {
      op = 'notes.set';
      txn = own[k % Math.max(1, own.length)];
      if (!txn) continue;
      input = { ...txn, note: `${c.person} edit ${k}` };
    }
    const t = performance.now();
    const { status, body } = await c.post(op, input);
    tally.ms[kind].push(performance.now() - t);
    tally.statuses.set(status, (tally.statuses.get(status) ?? 0) + 1);
    if (!body?.ok) {
      const why = body ? `${op}: ${body.error.kind}` : `${op}: no JSON (HTTP ${status})`;
      tally.refused.set(why, (tally.refused.get(why) ?? 0) + 1);
      continue;
    }
    if (kind === 'timeline') cursor = (body.result as TimelinePage).nextCursor;
    if (kind === 'edit' && txn) {
      tally.editsAcknowledged++;
      tally.edits.set(`${txn.chain}|${txn.txnHash}|${txn.wallet}`, { ...txn, note: (input as { note: string }).note });
    }
  }
}

/** Files positions of the fund's wallets at dates not cached, one job after another over HTTP, until `until`; the jobs finished. */
async function syncWriter(c: Caller, until: number): Promise<{ jobs: number; ends: Map<string, number> }> {
  let jobs = 0;
  const ends = new Map<string, number>();
  for (let k = 0; performance.now() < until; k++) {
    const date = new Date(Date.UTC(2026, 7, 1 + (k % 60))).toISOString().slice(0, 10);
    const wallet = fundWallet((k * 7) % WALLETS);
    const started = await c.post('sync.positions', { wallet, date });
    if (!started.body?.ok) throw new Error(`The sync was refused: ${started.body ? started.body.error.message : `HTTP ${started.status}`}`);
    const id = (started.body.result as JobInfo).id;
    // Its state read as a screen reads it (sync.jobs), a turn at a time: the job runs in the server.
    let state = 'queued';
    while (state === 'queued' || state === 'running') {
      await new Promise((r) => setTimeout(r, 50));
      const { body } = await c.post('sync.jobs', undefined);
      state = (body?.ok ? (body.result as JobInfo[]).find((j) => j.id === id)?.state : undefined) ?? 'gone';
    }
    jobs++;
    ends.set(state, (ends.get(state) ?? 0) + 1);
  }
  return { jobs, ends };
}

/** The server's peak RSS (VmHWM), MiB; null where /proc does not say. */
function peakRss(pid: number): number | null {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** Every acknowledged edit read back: the note each transaction was last given, or it is lost. */
async function lostEdits(c: Caller, tally: Tally): Promise<number> {
  let lost = 0;
  for (const e of tally.edits.values()) {
    const { body } = await c.post('notes.get', { wallet: e.wallet, chain: e.chain, txnHash: e.txnHash });
    const note = body?.ok ? (body.result as { note?: string | null } | null)?.note : undefined;
    if (note !== e.note) lost++;
  }
  return lost;
}

function figures(t: Tally, kind: Kind): string {
  const xs = [...t.ms[kind]].sort((a, b) => a - b);
  if (!xs.length) return 'none';
  return `${xs.length} requests: p50 ${fmt(percentile(xs, 50), 0)} ms, p95 ${fmt(percentile(xs, 95), 0)} ms, max ${fmt(xs.at(-1)!, 0)} ms`;
}

/** `folioscope ARGS` to its end (the people commands), its stdout; a failure thrown with its stderr. */
function run(args: readonly string[], env: Record<string, string> = {}): string {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...process.env, FOLIOSCOPE_ACCESS_KEY: '', ...env } });
  if (r.status !== 0) throw new Error(`folioscope ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return r.stdout;
}

/**
 * The team server (`folioscope server`, docs/team.md), each person signed in as themselves: an
 * owner made by `server init`, then a preparer per person (they edit notes) and one for the sync,
 * each with a personal API token (Bearer), as a script or cron reaches the server.
 */
async function teamServer(dataDir: string): Promise<Served> {
  const password = 'bench-password-' + 'x'.repeat(12);
  run(['--data-dir', dataDir, 'server', 'init', '--name', 'olive'], { FOLIOSCOPE_OWNER_PASSWORD: password });
  const tokenFor = (name: string) => {
    run(['--data-dir', dataDir, 'users', 'add', name, '--role', 'preparer'], { FOLIOSCOPE_USER_PASSWORD: password });
    return run(['--data-dir', dataDir, 'users', 'token', name, '--role', 'preparer']).trim();
  };
  const people = Array.from({ length: PEOPLE }, (_, i) => ({ name: `person-${i + 1}`, token: tokenFor(`person-${i + 1}`) }));
  const syncToken = tokenFor('sync');
  // Each person here asks as fast as the server answers, to measure the server: a person's
  // allowance (team/request-limits.ts, 40 a second) would otherwise answer most of the lone
  // person's asks "slow down" in a millisecond. The allowance has its own tests.
  const { child, firstLine } = await startServer(['--data-dir', dataDir, 'server', '--port', '0', '--requests-per-second', '10000']);
  const origin = firstLine.trim();
  const caller = (person: string, token: string): Caller => ({
    person,
    post: (op, input) => postJson(`${origin}/api/${op}`, { authorization: `Bearer ${token}` }, input),
  });
  return {
    callers: async (count) => people.slice(0, count).map((p) => caller(p.name, p.token)),
    syncer: async () => caller('sync', syncToken),
    pid: child.pid!,
    close: () => stopServer(child),
  };
}

/** Runs the bench on a shell made by `serve` (the loopback web shell by default; the team server gives its own). */
export async function teamBench(): Promise<void> {
  // FOLIOSCOPE_BENCH_TEAM_SHELL=serve: the loopback web shell instead (one user, for comparison).
  const loop = process.env['FOLIOSCOPE_BENCH_TEAM_SHELL'] === 'serve';
  await teamBenchOn(loop ? loopback : teamServer, loop ? 'the loopback web shell, `folioscope serve`' : 'the team server, `folioscope server`, a token each');
}

async function teamBenchOn(serve: (dataDir: string) => Promise<Served>, shellName: string): Promise<void> {
  if (!existsSync(join(import.meta.dirname, '../out/main/folioscope.js'))) throw new Error('Build first: npx electron-vite build');
  const source = fund(WALLETS);
  const dataDir = mkdtempSync(join(tmpdir(), 'folioscope-team-bench-'));
  cpSync(source, dataDir, { recursive: true });
  const served = await serve(dataDir);
  try {
    const syncer = await served.syncer();
    const listed = await syncer.post('groups.list', undefined);
    const existing = listed.body?.ok ? (listed.body.result as WalletGroup[])[0] : undefined;
    const saved = existing
      ? null
      : await syncer.post('groups.save', { name: 'Bench group', wallets: Array.from({ length: Math.min(50, WALLETS) }, (_, i) => fundWallet(i)) });
    const group = existing?.id ?? (saved?.body?.ok ? (saved.body.result as WalletGroup).id : null);
    const [first, ...rest] = await served.callers(PEOPLE);
    if (!first) throw new Error('No person to run the bench');

    // One person alone, nothing else running: the single-user figures of this run.
    const alone = newTally();
    const edits = alone.edits;
    await personLoop(first, 0, performance.now() + SECONDS * 1000, alone, group);

    // Everyone at once while a sync writes.
    // The same notes map: a transaction the first person noted alone and again with the team holds the later note.
    const team = { ...newTally(), edits };
    const until = performance.now() + SECONDS * 1000;
    const [writer] = await Promise.all([syncWriter(syncer, until), ...[first, ...rest].map((c, i) => personLoop(c, i, until, team, group))]);
    const rss = peakRss(served.pid);
    const lost = await lostEdits(first, team);
    const fivexx = [...team.statuses, ...alone.statuses].filter(([s]) => s >= 500).reduce((n, [, k]) => n + k, 0);
    const statuses = (t: Tally) => [...t.statuses].map(([s, k]) => `${k} × ${s}`).join(', ');
    const refused = (t: Tally) => [...t.refused].map(([w, k]) => `${k} × ${w}`).join('; ') || 'none';
    report(`Team load: ${PEOPLE} people over HTTP while a sync writes, beside one alone (${shellName})`, [
      ['machine', machine()],
      [
        'load average at the end',
        os
          .loadavg()
          .map((l) => fmt(l, 2))
          .join(', '),
      ],
      ['fund', `${WALLETS.toLocaleString('en-US')} wallets × 6 chains (bench/scale.ts), ${SECONDS} s per phase`],
      ['view (portfolio.summary), alone', figures(alone, 'view')],
      [`view, ${PEOPLE} people + sync`, `${figures(team, 'view')} (target p95 < ${TARGET_MS} ms)`],
      ['timeline page, alone', figures(alone, 'timeline')],
      [`timeline page, ${PEOPLE} people + sync`, `${figures(team, 'timeline')} (target p95 < ${TARGET_MS} ms)`],
      ['edit (notes.set), alone', figures(alone, 'edit')],
      [`edit, ${PEOPLE} people + sync`, figures(team, 'edit')],
      ['edits acknowledged / lost', `${alone.editsAcknowledged + team.editsAcknowledged} / ${lost} (target 0 lost)`],
      ['HTTP statuses (0: no answer)', `alone: ${statuses(alone)}; team: ${statuses(team)}; 5xx: ${fivexx} (target 0)`],
      ['refused answers', `alone: ${refused(alone)}; team: ${refused(team)}`],
      ['sync jobs while the team ran', `${writer.jobs}: ${[...writer.ends].map(([state, k]) => `${k} ${state}`).join(', ')}`],
      ['server peak RSS', rss === null ? 'not known' : `${fmt(rss, 0)} MiB`],
    ]);
  } finally {
    await served.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
