import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/** Runs a TypeScript file of the tests in a new Node process (with tsx), returning its output. */
export function runTs(file: string, args: string[], env: Record<string, string | undefined> = {}, input?: string) {
  const res = spawnSync(process.execPath, ['--import', 'tsx', join(import.meta.dirname, '..', file), ...args], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
    input,
    timeout: 60_000,
  });
  return { status: res.status, stdout: res.stdout, stderr: res.stderr };
}
