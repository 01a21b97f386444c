import { runCli } from '../../src/main/cli/index.ts';
import type { Ran } from './cli-process.ts';

/**
 * The `folioscope` program run in the test's own process, through the same entry the process
 * runs (`runCli`, src/main/cli/index.ts): its exit code, and what it wrote to its standard output
 * and error. For tests of what a command does (an annotation added then listed, a close made then
 * checked), where a process start per command (about a second each) is not what is tested; the
 * exit on a signal, a real process's streams, the cache after exit and cron-like runs stay
 * process tests (test/support/cli-process.ts).
 *
 * As `runCliSync`: the environment's access key and cache passphrase reach it only when `env`
 * gives them; `input` is its standard input; `now` pins the run's clock (the core's and the
 * reference service's), so "today" is the test's on any day. `tty`: its standard error is a
 * terminal 120 columns wide, where the progress bars are drawn.
 */
export async function runCliHere(args: string[], o: { env?: Record<string, string>; input?: string; now?: () => number; tty?: boolean } = {}): Promise<Ran> {
  const env: Record<string, string | undefined> = { ...process.env };
  delete env['FOLIOSCOPE_ACCESS_KEY'];
  delete env['FOLIOSCOPE_CACHE_PASSPHRASE'];
  Object.assign(env, o.env);
  const out = { stdout: '', stderr: '' };
  const status = await runCli(args, {
    stdout: { write: (text: string) => (out.stdout += text) },
    stderr: { write: (text: string) => (out.stderr += text), ...(o.tty && { isTTY: true, columns: 120 }) },
    env,
    stdin: () => o.input ?? '',
    ...(o.now && { now: o.now }),
  });
  return { status, ...out };
}
