import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { tempDir } from './store.ts';

/**
 * A change of `dir`'s key in a process of its own (rekey-child.ts) that kills itself just before
 * its `n`th step, in whichever thread takes it: kill-at-step.ts is loaded in every thread (the
 * conversion runs on a worker) and counts the steps in a file outside the folder. `env` gives
 * OLD_PASSPHRASE and NEW_PASSPHRASE (and NEW_COST).
 */
export function startKilledRekey(dir: string, n: number, env: Record<string, string>, stdio: 'ignore' | 'pipe' = 'ignore'): ChildProcess {
  const support = import.meta.dirname;
  return spawn(process.execPath, ['--import', 'tsx', '--import', join(support, 'kill-at-step.ts'), join(support, 'rekey-child.ts'), dir], {
    env: { ...process.env, ...env, KILL_AT: String(n), KILL_COUNT: join(tempDir(), 'steps') },
    stdio: ['ignore', stdio, stdio],
  });
}
