import { type ChildProcess, spawn } from 'node:child_process';
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
