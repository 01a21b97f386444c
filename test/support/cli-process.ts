import Database from 'better-sqlite3-multiple-ciphers';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';

/**
 * The `folioscope` program as users and cron run it: a process of its own (bin/folioscope.mjs),
 * its exit code and output read. Tests of the CLI, `serve` and `watch` share these.
 */
export const CLI = join(import.meta.dirname, '../../bin/folioscope.mjs');

export interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Starts the program; `done` resolves with its exit code and everything it printed. */
export function startCli(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const out = { stdout: '', stderr: '' };
  child.stdout.on('data', (d) => (out.stdout += String(d)));
  child.stderr.on('data', (d) => (out.stderr += String(d)));
  const done = new Promise<Ran>((resolve) => child.on('exit', (status) => resolve({ status, ...out })));
  return { child, out, done };
}

/** Runs the program to its end. */
export const runCli = (args: string[], env: Record<string, string> = {}): Promise<Ran> => startCli(args, env).done;

/**
 * Runs the program to its end, synchronously: a test's steps one after another, as a user types
 * them. The environment's access key and cache passphrase reach it only when `env` gives them
 * (a test's commands run in demo mode and on a plain cache otherwise); D-Bus's start-up noise is
 * left out of what it printed.
 */
export function runCliSync(args: string[], o: { env?: Record<string, string>; input?: string; timeout?: number } = {}): Ran {
  const env: Record<string, string | undefined> = { ...process.env };
  delete env['FOLIOSCOPE_ACCESS_KEY'];
  delete env['FOLIOSCOPE_CACHE_PASSPHRASE'];
  Object.assign(env, o.env);
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env, input: o.input ?? '', timeout: o.timeout ?? 120_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr.replace(/.*dbus-daemon.*\n/g, '') };
}

/**
 * Another process holding the cache file open in a read transaction (as the app, the web shell
 * or a running sync would), until `release`; `printed`: what it read (the count of wallets).
 */
export async function holdOpen(file: string): Promise<{ printed: string; release(): void }> {
  const other = spawn('sqlite3', [file], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  other.stdout.on('data', (d) => (out += String(d)));
  other.stdin.write('BEGIN; SELECT count(*) FROM wallets;\n');
  for (const until = Date.now() + 10_000; !/\d/.test(out); await new Promise((r) => setTimeout(r, 50))) {
    if (Date.now() > until) {
      other.kill('SIGKILL');
      throw new Error(`sqlite3 did not open ${file} within 10 s`);
    }
  }
  return { printed: out, release: () => void other.kill('SIGKILL') };
}

/** The first line a child prints (a URL the program announces), or its exit as an error. */
export function firstLine(child: ChildProcess, what: string): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    child.stdout!.once('data', (d) => resolve(String(d).split('\n')[0]!.trim()));
    child.once('exit', (code) => reject(new Error(`${what} exited ${code}`)));
  });
}

/**
 * The reference service as a process (`folioscope sim …`) for the tests of a file: its URL, once
 * started; `stop()` kills it (SIGKILL, as a service that vanishes) and resolves once it has exited.
 */
export function useSimProcess(args: string[]): { readonly url: string; stop(): Promise<void> } {
  let child: ChildProcess | null = null;
  const ctx = {
    url: '',
    async stop() {
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child!.once('exit', r));
      child.kill('SIGKILL');
      await exited;
    },
  };
  beforeAll(async () => {
    child = spawn(process.execPath, [CLI, 'sim', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    ctx.url = await firstLine(child, 'sim');
  });
  afterAll(() => void child?.kill('SIGTERM'));
  return ctx;
}

/** The (plain) cache a run of the program left in `dir`, opened by the test's own hand. */
function cacheIn(dir: string, readonly: boolean): Database.Database {
  return new Database(
    join(
      dir,
      readdirSync(dir).find((f) => f.endsWith('.sqlite'))!,
    ),
    { readonly },
  );
}

/** Reads the (plain) cache a run of the program left in `dir`, read-only, after it exited: what it holds, not what it printed. */
export function readCacheIn<T>(dir: string, read: (db: Database.Database) => T): T {
  const db = cacheIn(dir, true);
  try {
    return read(db);
  } finally {
    db.close();
  }
}

/** Writes into the (plain) cache a run left in `dir`, after it exited: what the next run meets, set by the test's hand, not the app's. */
export function writeCacheIn<T>(dir: string, write: (db: Database.Database) => T): T {
  const db = cacheIn(dir, false);
  try {
    return write(db);
  } finally {
    db.close();
  }
}
